/**
 * A toolbox of many tools for the tests and the bench (src/toolbox/): five
 * servers' worth (repository, calendar, mail, files, tickets), each tool
 * with a description that says more than its name.
 */

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
