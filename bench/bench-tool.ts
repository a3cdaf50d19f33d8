/**
 * A FaeTool caplet whose call name comes from env TOOL_NAME; it echoes its
 * arguments. Lets the bench (and the tests) fill tools/ with many distinct
 * tools.
 */
import { makeFaeTool } from '../tools/lib/make-fae-tool.js';

export const make = (
  _powers: unknown,
  _context: unknown,
  { env = {} }: { env?: Record<string, string> } = {},
) => {
  const name = env.TOOL_NAME ?? 'echo';
  return makeFaeTool({
    name,
    description: `Echoes its arguments (tool ${name}).`,
    parameters: { type: 'object', properties: { text: { type: 'string' } } },
    help: `Echoes its arguments (${name}).`,
    run: args => ({ tool: name, echoed: args }),
  });
};
harden(make);
