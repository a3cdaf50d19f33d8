/**
 * A toolbox of many tools for the tests and the bench (src/toolbox/): five
 * servers' worth (repository, calendar, mail, files, tickets), each tool
 * with a description that says more than its name.
 */
import { makeFaeTool } from '../tools/lib/make-fae-tool.js';

const KINDS: readonly [string, string, string][] = [
  ['repo', 'the code repository', 'pull request, branch, commit, review'],
  ['calendar', 'the calendar', 'meeting, appointment, event, invitation'],
  ['mail', 'the mailbox', 'email, letter, inbox, draft'],
  ['files', 'the shared drive', 'document, folder, upload, spreadsheet'],
  ['tickets', 'the issue tracker', 'bug, ticket, incident, backlog'],
];
const VERBS = ['create', 'list', 'update', 'delete', 'search', 'archive', 'share', 'export'];

/** Every tool's parameters: one required title, as many MCP tools take. */
export const TOOLBOX_TOOL_PARAMETERS = harden({
  type: 'object' as const,
  properties: { title: { type: 'string' as const, description: 'what it is called' } },
  required: ['title'],
});
harden(TOOLBOX_TOOL_PARAMETERS);

/** The tools' names and descriptions, in order: `count` of them. */
export const toolboxTools = (count: number): { name: string; description: string }[] =>
  Array.from({ length: count }, (_, index) => {
    const [kind, place, things] = KINDS[index % KINDS.length]!;
    const verb = VERBS[Math.floor(index / KINDS.length) % VERBS.length]!;
    const round = Math.floor(index / (KINDS.length * VERBS.length));
    const name = `${kind}_${verb}_item${round === 0 ? '' : `_${round}`}`;
    const thing = things.split(', ')[round % 4]!;
    return {
      name,
      description: `${verb[0]!.toUpperCase()}${verb.slice(1)} a ${thing} in ${place}.`,
    };
  });

harden(toolboxTools);

/**
 * The toolbox as a tool module (tools/tool-source.ts's TOOL_MODULES, the
 * daemon guide's Fae with a hundred tools): tools TOOLBOX_FROM to
 * TOOLBOX_TO (0 to 120), each answering what it was given.
 */
export const make = (
  _powers: unknown,
  _context: unknown,
  options: { env?: Record<string, string> } = {},
) => {
  const from = Number(options.env?.TOOLBOX_FROM ?? 0);
  const to = Number(options.env?.TOOLBOX_TO ?? 120);
  return harden(
    toolboxTools(to)
      .slice(from)
      .map(({ name, description }) =>
        makeFaeTool({
          name,
          description,
          parameters: TOOLBOX_TOOL_PARAMETERS,
          help: `${name}(title)`,
          run: args => `${name} ran with ${JSON.stringify(args)}`,
        }),
      ),
  );
};
harden(make);
