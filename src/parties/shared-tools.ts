/**
 * Which of the HOST's dynamic tools (the FaeTools of tools/, a tool
 * source's such as MCP's, runCommand) a turn serving another party holds
 * (docs/behaviour.md 9.6): only those the HOST shared, by LAL_SHARED_TOOLS,
 * a comma-separated list of tool names (shared with every party) and
 * `party:tool` items (shared with that party alone); `*` stands for every
 * tool (`*`, `bob:*`). None by default: a party that mails the agent is
 * offered none of the HOST's tools.
 */
import type { Env } from '../../providers/types.js';

export interface SharedTools {
  /** Whether the HOST shared this tool (by its call name) with the party of this name. */
  sharedWith(party: string, tool: string): boolean;
  /** For help(): what is shared with whom. */
  describe(): string[];
}

const SHARED_TOOLS_ENV = 'LAL_SHARED_TOOLS';

/** Every tool, in place of a tool's name. */
const EVERY_TOOL = '*';

/** The party and the tool of one item: no party for one shared with everyone. */
const readItem = (item: string): { party: string | undefined; tool: string } => {
  const at = item.lastIndexOf(':');
  return at < 0
    ? { party: undefined, tool: item }
    : { party: item.slice(0, at).trim(), tool: item.slice(at + 1).trim() };
};

export const readSharedTools = (env: Env): SharedTools => {
  const everyone = new Set<string>();
  const byParty = new Map<string, Set<string>>();
  for (const item of (env[SHARED_TOOLS_ENV] ?? '').split(',')) {
    const { party, tool } = readItem(item.trim());
    if (tool === '' || party === '') continue;
    if (party === undefined) everyone.add(tool);
    else byParty.set(party, new Set([...(byParty.get(party) ?? []), tool]));
  }
  return harden({
    sharedWith: (party: string, tool: string) =>
      [tool, EVERY_TOOL].some(
        name => everyone.has(name) || (byParty.get(party)?.has(name) ?? false),
      ),
    describe: () =>
      everyone.size === 0 && byParty.size === 0
        ? [`none: other parties are offered none of the HOST's tools (${SHARED_TOOLS_ENV})`]
        : [
            ...(everyone.size === 0 ? [] : [`with everyone: ${[...everyone].join(', ')}`]),
            ...[...byParty].map(([party, tools]) => `with ${party}: ${[...tools].join(', ')}`),
          ],
  });
};
harden(readSharedTools);
