/**
 * A tool source in Fae's tools/: a capability that offers FaeTools through
 * `listTools()` rather than being one, such as the MCP bridge caplet
 * (docs/mcp.md), whose list follows its server's. Fae offers every tool of
 * it, asking for the list at each turn (one round trip) and for a schema only
 * for a tool it has not seen, so a tool the source adds is offered at the next
 * turn and one it drops is no longer offered.
 */
import { E } from '@endo/far';
import type { FaeTool } from './fae-tool.js';
import type { Log } from '../log/log.js';
import type { ToolSchema } from '../../providers/types.js';
import { checkToolSchema } from './check-tool-schema.js';
import { canStop, methodNamesOf } from './tool-shape.js';
import { describeError } from '../../providers/describe-error.js';

/**
 * At most this many tools of one source are offered: past LAL_TOOL_BUDGET_TOKENS the toolbox
 * defers them (src/toolbox/), so a source of a hundred costs a request no more than a few; the
 * bound keeps one source from having the agent ask for thousands of schemas.
 */
const MAX_SOURCE_TOOLS = 256;

export interface ToolSource {
  listTools(): Promise<FaeTool[]>;
}

type SourceTool =
  { tool: FaeTool; schema: ToolSchema; stoppable: boolean } | { tool: FaeTool; refused: string };

/** What one source offered last: its tools in its order, each with its checked schema or why it is refused. */
export type SourceTools = SourceTool[];

/** A call to another vat that must answer in time (the registry's). */
export type Bounded = <T>(what: string, call: () => unknown) => Promise<T>;

/**
 * Asks a source for its tools, reusing what `before` knew of a tool it answers again (the same
 * remote reference: a source makes a new FaeTool when a tool's schema changes). Throws when the
 * source cannot be asked; a tool whose schema() fails or is refused is kept with the reason.
 */
export const listSourceTools = async (
  source: ToolSource,
  before: SourceTools,
  bounded: Bounded,
  petName: string,
  log: Log,
): Promise<SourceTools> => {
  const answered = await bounded<unknown>(`tools/${petName}'s listTools()`, () =>
    E(source).listTools(),
  );
  if (!Array.isArray(answered)) throw Error(`tools/${petName}'s listTools() did not answer a list`);
  if (answered.length > MAX_SOURCE_TOOLS)
    log(
      `tools/${petName} offers ${answered.length} tools; only the first ${MAX_SOURCE_TOOLS} are offered`,
    );
  return Promise.all(
    (answered as FaeTool[]).slice(0, MAX_SOURCE_TOOLS).map(async (tool): Promise<SourceTool> => {
      const known = before.find(each => each.tool === tool);
      if (known !== undefined) return known;
      // Asked beside its schema (as the registry asks a tool of tools/): whether it can be stopped.
      const methods = methodNamesOf(tool, bounded, `a tool of tools/${petName}'s methods`);
      try {
        const checked = checkToolSchema(
          await bounded<unknown>(`a schema() of tools/${petName}`, () => E(tool).schema()),
        );
        if (checked.ok) return { tool, schema: checked.schema, stoppable: canStop(await methods) };
        log(`a tool of tools/${petName} is refused: ${checked.reason}`);
        return { tool, refused: checked.reason };
      } catch (error) {
        log(`a tool of tools/${petName} is refused: ${describeError(error)}`);
        return { tool, refused: describeError(error) };
      }
    }),
  );
};
harden(listSourceTools);

/** What the registry knows of a tools/ entry that is a source. */
export interface SourceHolder {
  source?: { ref: ToolSource; tools: SourceTools };
}

/** Asks each tool source for its current tools, but those in `skip`; one that cannot answer keeps what it offered. */
export const relistSources = async (
  entries: ReadonlyMap<string, SourceHolder>,
  skip: ReadonlySet<SourceHolder>,
  bounded: Bounded,
  log: Log,
): Promise<void> => {
  await Promise.all(
    [...entries].map(async ([petName, holder]) => {
      const { source } = holder;
      if (source === undefined || skip.has(holder)) return;
      try {
        source.tools = await listSourceTools(source.ref, source.tools, bounded, petName, log);
      } catch (error) {
        log(`tools/${petName}: ${describeError(error)}; the tools it offered before stay offered`);
      }
    }),
  );
};
harden(relistSources);
