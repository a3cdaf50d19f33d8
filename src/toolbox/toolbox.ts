/**
 * A toolbox of hundreds at the cost of a few (docs/how-it-works.md, "The
 * toolbox"): past LAL_TOOL_BUDGET_TOKENS of schemas the dynamic tools are
 * deferred (./plan-offer.ts) and the model is offered one more tool,
 * `toolbox`, which finds them by what they do (./search-tools.ts) and calls
 * one found. A call through it is unwrapped before anything judges it, so
 * the tool's own schema validates its arguments and the policy judges it by
 * its own name, exactly as when it is offered; a deferred tool called by its
 * own name runs too. The offered set changes only at a turn whose first
 * request rewrites the conversation's beginning anyway (a fold, or a thread
 * new to the model), so a prompt cache loses nothing to it; until then a
 * tool found is called by its name, as the conversation shows it. The
 * tools used lately are each thread's own: a peer's turn is not offered
 * what the HOST used, which would tell the peer what the HOST does
 * (docs/behaviour.md 9.1), nor the HOST's what a peer used.
 */
import type { ToolCall, ToolSchema } from '../../providers/types.js';
import { closestNames } from '../../providers/closest-names.js';
import type { DynamicTool } from '../agent-tools/dynamic-tool.js';
import type { ToolRegistry } from '../agent-tools/fae-tool-registry.js';
import { planOffer } from './plan-offer.js';
import { searchTools } from './search-tools.js';
import type { ToolboxSettings } from '../settings/toolbox-settings.js';

export const TOOLBOX_NAME = 'toolbox';
harden(TOOLBOX_NAME);

/** Tools remembered as used lately per thread (offered directly while they fit the budget). */
const RECENT_KEPT = 16;
/** Threads whose recent tools are remembered, the least lately served forgotten first. */
const THREADS_REMEMBERED = 64;
/** The key of the HOST's thread (and of turns for no sender, e.g. a wake-up). */
const HOST_THREAD = '';
/** Sources named in the toolbox's description, and tools named per source. */
const SOURCES_NAMED = 6;
const TOOLS_NAMED = 3;

export interface Toolbox {
  /** The registry the turn's tools run through: it also knows `toolbox` while tools are deferred. */
  registry: ToolRegistry;
  /** The dynamic tools to offer with this request (policy-filtered by `allowed`), `toolbox` last when some are deferred. */
  offer(allowed: (schemas: readonly ToolSchema[]) => ToolSchema[]): ToolSchema[];
  /** A call through `toolbox` ({use, arguments}) as a call of the tool it names; any other call as it is. */
  unwrap(call: ToolCall): ToolCall;
  /**
   * A turn starts for `thread` (a sender; undefined for the HOST's). When its first request
   * rewrites the beginning anyway (`rewrites`), the tools used lately in that thread are offered
   * directly from now; else the thread keeps the set its previous requests offered.
   */
  beginTurn(thread: string | undefined, rewrites: boolean): void;
  /** help()'s lines: as the HOST's next turn will offer them (policy-filtered by `allowed`). */
  describe(allowed: (schemas: readonly ToolSchema[]) => ToolSchema[]): string[];
  /** The tools behind `toolbox`, read as describe() reads them. */
  deferredNames(allowed: (schemas: readonly ToolSchema[]) => ToolSchema[]): string[];
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

/** What the model is told is in the toolbox: the sources and some of their tools' names. */
const describeToolbox = (deferred: readonly ToolSchema[], petNameOf: (name: string) => string) => {
  const bySource = new Map<string, string[]>();
  for (const schema of deferred) {
    const source = petNameOf(schema.function.name);
    bySource.set(source, [...(bySource.get(source) ?? []), schema.function.name]);
  }
  const sources = [...bySource]
    .sort((a, b) => b[1].length - a[1].length)
    .slice(0, SOURCES_NAMED)
    .map(
      ([source, names]) =>
        `${source} (${names.length}: ${names.slice(0, TOOLS_NAMED).join(', ')}${names.length > TOOLS_NAMED ? ', …' : ''})`,
    );
  const more = bySource.size > SOURCES_NAMED ? `, and ${bySource.size - SOURCES_NAMED} more` : '';
  return `Finds and calls the ${deferred.length} tools not offered here: find (words for what it does) returns the best with their parameters; use (its name) with arguments calls one. Sources: ${sources.join('; ')}${more}.`;
};

const toolboxSchema = (description: string): ToolSchema =>
  harden({
    type: 'function',
    function: {
      name: TOOLBOX_NAME,
      description,
      parameters: {
        type: 'object',
        properties: {
          find: { type: 'string' },
          use: { type: 'string' },
          arguments: { type: 'object' },
        },
      },
    },
  });

export const makeToolbox = (options: {
  registry: ToolRegistry;
  settings: ToolboxSettings;
}): Toolbox => {
  const { registry, settings } = options;
  // Each thread's tools used lately, the latest first; a Map keeps the least lately served first.
  const recentByThread = new Map<string, string[]>();
  // What each thread's requests offer directly since its beginning was last rewritten.
  const offeredByThread = new Map<string, readonly string[]>();
  let thread = HOST_THREAD;
  let offeredRecent: readonly string[] = [];
  let deferred: ToolSchema[] = [];
  let allowedNames: ReadonlySet<string> = new Set();
  let entry: DynamicTool | undefined;
  const deferredNames = () => deferred.map(schema => schema.function.name);

  const find = (args: Record<string, unknown>): unknown => {
    if (typeof args.use === 'string' && args.use.trim() !== '') {
      // Reached only when `use` names no tool that may run (a known one is unwrapped first).
      const near = closestNames(args.use, deferredNames());
      throw new Error(
        `No tool "${args.use}" in the toolbox${near.length === 0 ? '' : `; the nearest: ${near.join(', ')}`}. Find one first: toolbox {find: "what it should do"}`,
      );
    }
    if (typeof args.find !== 'string')
      throw new Error('Give find (words for what the tool should do) or use (a tool found)');
    return searchTools(deferred, args.find);
  };
  const execute = (args: Record<string, unknown>): Promise<unknown> =>
    Promise.resolve(args).then(find);
  const toolboxEntry = (schema: ToolSchema): DynamicTool =>
    harden({
      name: TOOLBOX_NAME,
      petName: '(the agent)',
      schema,
      // Local: E() on it runs at once, as a FaeTool's would through its vat.
      tool: harden({ schema: () => schema, execute, help: () => schema.function.description }),
      // Its search answers at once: nothing to stop.
      stoppable: false,
    });

  /** Sets a thread's entry as the latest served, forgetting the least lately served past the bound. */
  const remember = <T>(byThread: Map<string, T>, value: T) => {
    byThread.delete(thread);
    byThread.set(thread, value);
    if (byThread.size > THREADS_REMEMBERED) byThread.delete(byThread.keys().next().value!);
  };
  const used = (name: string) => {
    const recent = recentByThread.get(thread) ?? [];
    remember(
      recentByThread,
      [name, ...recent.filter(other => other !== name)].slice(0, RECENT_KEPT),
    );
  };

  /**
   * The tools behind `toolbox` at the HOST's next turn: planned now, as offer() will plan it, from
   * the tools held now and the set the HOST's thread keeps. Not the last turn's plan: tools
   * attached since would be told as offered one by one (issue 45), and the last turn may have
   * been a peer's.
   */
  const deferredOf = (allowed: (schemas: readonly ToolSchema[]) => ToolSchema[]) =>
    planOffer(allowed(registry.schemas()), {
      ...settings,
      recent: offeredByThread.get(HOST_THREAD) ?? [],
    }).deferred;

  const wrapped: ToolRegistry = harden({
    ...registry,
    find: (name: string) =>
      name === TOOLBOX_NAME && entry !== undefined ? entry : registry.find(name),
  });

  return {
    registry: wrapped,
    offer(allowed) {
      const schemas = allowed(registry.schemas());
      allowedNames = new Set(schemas.map(schema => schema.function.name));
      const plan = planOffer(schemas, { ...settings, recent: offeredRecent });
      deferred = plan.deferred;
      if (deferred.length === 0) {
        entry = undefined;
        return plan.direct;
      }
      const description = describeToolbox(
        deferred,
        name => registry.find(name)?.petName ?? 'tools/',
      );
      if (entry?.schema.function.description !== description)
        entry = toolboxEntry(toolboxSchema(description));
      return [...plan.direct, entry.schema];
    },
    unwrap(call) {
      if (call.name !== TOOLBOX_NAME) {
        if (registry.find(call.name) !== undefined) used(call.name);
        return call;
      }
      let args: unknown;
      try {
        args = JSON.parse(call.arguments);
      } catch {
        return call;
      }
      if (!isRecord(args) || typeof args.use !== 'string') return call;
      const name = args.use.trim();
      // Only a tool the policy allows (offered or deferred): else the toolbox says there is none.
      if (!allowedNames.has(name)) return call;
      used(name);
      const inner = args.arguments;
      return harden({
        ...call,
        name,
        arguments: typeof inner === 'string' ? inner : JSON.stringify(inner ?? {}),
      });
    },
    beginTurn(sender, rewrites) {
      thread = sender ?? HOST_THREAD;
      offeredRecent = rewrites
        ? [...(recentByThread.get(thread) ?? [])]
        : (offeredByThread.get(thread) ?? []);
      remember(offeredByThread, offeredRecent);
    },
    describe: allowed => {
      const all = allowed(registry.schemas()).length;
      const behind = deferredOf(allowed);
      if (behind.length === 0) return all === 0 ? [] : [`${all} offered directly`];
      return [
        `${all - behind.length} offered directly, ${behind.length} deferred behind ${TOOLBOX_NAME} (LAL_TOOL_BUDGET_TOKENS ${settings.budgetTokens})`,
      ];
    },
    deferredNames: allowed => deferredOf(allowed).map(schema => schema.function.name),
  };
};
harden(makeToolbox);
