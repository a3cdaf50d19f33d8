/**
 * A tool source caplet for the toolbox tests and bench (src/toolbox/): five servers'
 * worth of tools (repository, calendar, mail, files, tickets), each with a
 * description that says more than its name, a required parameter, and an
 * answer that repeats what it was given. `TOOLBOX_FROM` and `TOOLBOX_TO` in
 * its env say which of them it offers (a source offers at most 64).
 */
import { Far } from '@endo/far';
import { makeFaeTool } from '../tools/lib/make-fae-tool.js';
import { TOOLBOX_TOOL_PARAMETERS, toolboxTools } from './toolbox-tools.js';

export const make = (
  _powers: unknown,
  _context: unknown,
  options: { env?: Record<string, string> } = {},
) => {
  const from = Number(options.env?.TOOLBOX_FROM ?? 0);
  const to = Number(options.env?.TOOLBOX_TO ?? 60);
  const tools = toolboxTools(to)
    .slice(from)
    .map(({ name, description }) =>
      makeFaeTool({
        name,
        description,
        parameters: TOOLBOX_TOOL_PARAMETERS,
        help: `${name}(title)`,
        run: args => `${name} ran with ${JSON.stringify(args)}`,
      }),
    );
  return Far('ToolSource', {
    listTools: async () => harden(tools),
    help: () => `a source of ${tools.length} tools`,
  });
};
harden(make);
