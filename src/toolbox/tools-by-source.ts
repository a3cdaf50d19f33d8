/**
 * The tools/ tools a turn can reach, grouped by where each came from: those
 * offered one by one and those deferred behind `toolbox`. help()'s "Tools
 * offered" counts the deferred per source (a toolbox of 120 would bury the
 * rest of help()); the controller's tools() names every one.
 */
import type { ToolSchema } from '../../providers/types.js';
import { TOOLS_DIRECTORY, type ToolRegistry } from '../agent-tools/fae-tool-registry.js';
import { TOOLBOX_NAME, type Toolbox } from './toolbox.js';

interface Source {
  /** Where its tools are, and who gave them: `tools/math, the HOST's`. */
  source: string;
  direct: string[];
  deferred: string[];
}

interface ToolsSeen {
  tools: ToolRegistry;
  toolbox: Toolbox;
  /** The schemas the policy lets a turn be offered. */
  allowed: (schemas: readonly ToolSchema[]) => ToolSchema[];
  hostName: string;
}

const bySource = ({ tools, toolbox, allowed, hostName }: ToolsSeen): Source[] => {
  const deferred = new Set(toolbox.deferredNames(allowed));
  // What the policy keeps from a turn is not said to be offered (LAL_TOOLS_DENY, LAL_TOOLS_ALLOW).
  const reachable = new Set(allowed(tools.schemas()).map(schema => schema.function.name));
  const sources = new Map<string, Source>();
  for (const { name, petName, givenBy } of tools.offeredBy()) {
    if (!reachable.has(name)) continue;
    const source = `${TOOLS_DIRECTORY}/${petName}, ${givenBy === undefined ? `the ${hostName}'s` : `given by ${givenBy}`}`;
    const entry = sources.get(source) ?? { source, direct: [], deferred: [] };
    sources.set(source, entry);
    (deferred.has(name) ? entry.deferred : entry.direct).push(name);
  }
  return [...sources.values()];
};

/** help()'s Tools offered: each direct tool by name with its source; the deferred counted per source. */
export const describeOffered = (seen: ToolsSeen, budgetTokens: number): string[] => {
  const sources = bySource(seen);
  return [
    ...sources.flatMap(({ source, direct }) => direct.map(name => `${name}: ${source}`)),
    ...sources
      .filter(({ deferred }) => deferred.length > 0)
      .map(
        ({ source, deferred: { length } }) =>
          `${length} tool${length === 1 ? '' : 's'} of ${source}: deferred behind ${TOOLBOX_NAME}, which the agent searches by what a tool does (ask it for the task); a LAL_TOOL_BUDGET_TOKENS over their schemas' size (now ${budgetTokens}) offers and lists them one by one; tools() names them (/tools in npm start)`,
      ),
  ];
};
harden(describeOffered);

/** What stands between a source's deferred tools, counted, and their names in tools()'s line. */
const DEFERRED_NAMES = `behind ${TOOLBOX_NAME} (found by what they do): `;

/** tools(): every tool a turn can reach by name, one source a line, the deferred ones said so. */
export const listTools = (seen: ToolsSeen, builtins: readonly string[]): string => {
  const lines = [`built in: ${builtins.join(', ') || 'none (LAL_TOOLS_ALLOW, LAL_TOOLS_DENY)'}`];
  for (const { source, direct, deferred } of bySource(seen)) {
    if (direct.length > 0) lines.push(`${source}: ${direct.join(', ')}`);
    if (deferred.length > 0)
      lines.push(`${source}, ${deferred.length} ${DEFERRED_NAMES}${deferred.join(', ')}`);
  }
  return lines.join('\n');
};
harden(listTools);

/**
 * A line of tools() naming a source's deferred tools, read back: what comes before the names
 * (`tools/sample-toolbox, the HOST's, 120 behind toolbox (found by what they do)`) and the names;
 * undefined for another line. npm start's /tools counts a long one (sim/chat/tools-listing.ts).
 */
export const readDeferredLine = (line: string): { head: string; names: string[] } | undefined => {
  const at = line.indexOf(DEFERRED_NAMES);
  if (at < 0) return undefined;
  const end = at + DEFERRED_NAMES.length;
  return { head: line.slice(0, end - 2), names: line.slice(end).split(', ') };
};
harden(readDeferredLine);
