/**
 * Fae's dynamic tools: the FaeTools in the guest's `tools/` directory.
 * `refresh` first asks for the directory's formula ids (`listIdentifiers`,
 * one round trip): when they are the ones already known, nothing else is
 * asked. Otherwise it lists the directory and identifies each entry
 * concurrently, and reads a schema only for an id it has not seen. Every
 * call to a tool's vat is bounded: a tool whose look-up or schema() fails,
 * does not answer in time, or whose schema is not plain JSON is refused
 * (not offered, the reason kept for help()) until its formula id changes.
 */
import { E } from '@endo/far';
import type { PowersRef } from '../daemon/guest-powers.js';
import type { FaeTool } from './fae-tool.js';
import type { ToolSchema } from '../../providers/types.js';
import type { Log } from '../log/log.js';
import { runWithTimeout, TimeoutError } from '../lifecycle/run-with-timeout.js';
import { checkToolSchema } from './check-tool-schema.js';
import { isCollectedFormula } from './tools-directory.js';
import { chooseOffered, whoGave } from './offered-tools.js';
import type { DynamicTool, Known } from './dynamic-tool.js';
import type { ToolGivers } from './tool-givers.js';
import { canStop, methodNamesOf, toolShapeOf } from './tool-shape.js';
import {
  listSourceTools,
  relistSources,
  type SourceTools,
  type ToolSource,
} from './tool-sources.js';
import { describeError } from '../../providers/describe-error.js';

export const TOOLS_DIRECTORY = 'tools';
harden(TOOLS_DIRECTORY);

export interface ToolRegistry {
  /**
   * Brings the offered tools up to date; `force` also re-reads the names (after
   * a rename). Says `collected` when tools/ names a directory the daemon
   * collected (tools-directory.ts), which only making it again mends.
   */
  refresh(options?: { force?: boolean }): Promise<'read' | 'collected'>;
  schemas(): ToolSchema[];
  /** The formula id last read under this pet name in tools/, if any. */
  knownId(petName: string): string | undefined;
  /** Whether tools/ holds a tool source (tool-sources.ts), whose tools can change while tools/ does not. */
  hasSources(): boolean;
  find(name: string): DynamicTool | undefined;
  /** Why the entry under this pet name in tools/ is not offered, if it is not. */
  refusal(petName: string): string | undefined;
  /** Every entry of tools/ that is not offered, with the reason (for help()). */
  refused(): { petName: string; reason: string }[];
  /** Every tool offered: its name, its pet name in tools/, and who gave it (undefined: the HOST). */
  offeredBy(): { name: string; petName: string; givenBy: string | undefined }[];
}

/**
 * Whether two names hold one formula (a tool mailed again under a new name). The daemon lists each
 * formula id once, so then the ids cannot tell that one of the names went: names are read again.
 */
const aliased = (entries: ReadonlyMap<string, Known>): boolean =>
  new Set([...entries.values()].map(each => each.id)).size < entries.size;

/** Calls to another vat that must answer in time; what each did, in words, when it does not. */
const boundedCalls =
  (lookupTimeoutMs: number) =>
  <T>(what: string, call: () => unknown): Promise<T> =>
    runWithTimeout(Promise.resolve().then(call) as Promise<T>, lookupTimeoutMs, what).catch(
      (error: unknown) => {
        throw new Error(
          error instanceof TimeoutError
            ? `${what} did not answer within ${lookupTimeoutMs} ms`
            : `${what} failed: ${describeError(error)}`,
          { cause: error },
        );
      },
    );

export const makeToolRegistry = (options: {
  powers: PowersRef;
  log: Log;
  builtinNames: ReadonlySet<string>;
  /** Each look-up and schema() call must answer within this (LAL_TOOL_LOOKUP_TIMEOUT_MS). */
  lookupTimeoutMs: number;
  /** Who gave the tools adopted from others (tool-givers.ts); every tool is the HOST's without it. */
  givers?: ToolGivers;
}): ToolRegistry => {
  const { powers, log, builtinNames, lookupTimeoutMs, givers } = options;
  // Pet name → what we know of the entry under it.
  let known = new Map<string, Known>();
  let byName = new Map<string, DynamicTool>();
  // Pet name → why it is known but not offered (refused, or a name clash).
  let notOffered = new Map<string, string>();
  // The sorted formula ids of tools/ when last read in full.
  let knownIds: string | undefined;

  const bounded = boundedCalls(lookupTimeoutMs);

  const load = async (petName: string, id: string): Promise<Known> => {
    let reason: string;
    try {
      const tool = await bounded<FaeTool>('its look-up', () =>
        E(powers).lookup([TOOLS_DIRECTORY, petName]),
      );
      // What it is (a tool, one that can be stopped, a source) costs no round trip's wait.
      const methods = methodNamesOf(tool, bounded, 'its methods');
      let schema: unknown;
      try {
        schema = await bounded<unknown>('its schema()', () => E(tool).schema());
      } catch (schemaError) {
        // Not a FaeTool that answers: perhaps a tool source (an MCP bridge), told by its methods;
        // an entry that cannot say them in time is refused as one whose schema() failed is.
        if (toolShapeOf(await methods) !== 'source') throw schemaError;
        const ref = tool as unknown as ToolSource;
        let sourceTools: SourceTools = [];
        try {
          sourceTools = await listSourceTools(ref, [], bounded, petName, log);
        } catch (listError) {
          // A source that cannot answer yet (an MCP server still starting) is asked again at each
          // turn, as a known source is.
          log(`tools/${petName}: ${describeError(listError)}; asked again at the next turn`);
        }
        return { id, entry: undefined, source: { ref, tools: sourceTools } };
      }
      const checked = checkToolSchema(schema);
      if (checked.ok)
        return {
          id,
          entry: {
            name: checked.schema.function.name,
            petName,
            schema: checked.schema,
            tool,
            stoppable: canStop(await methods),
          },
        };
      reason = checked.reason;
    } catch (error) {
      reason = describeError(error);
    }
    log(`tools/${petName} refused: ${reason}; it is not offered until it changes`);
    return { id, entry: undefined, refused: reason };
  };

  const offer = (entries: ReadonlyMap<string, Known>) => {
    ({ offered: byName, skipped: notOffered } = chooseOffered(entries, builtinNames, log, givers));
  };

  const refresh = async ({ force = false }: { force?: boolean } = {}): Promise<
    'read' | 'collected'
  > => {
    let ids: string;
    let petNames: string[];
    try {
      ids = (
        await bounded<string[]>('listing tools/', () => E(powers).listIdentifiers(TOOLS_DIRECTORY))
      ).join(' ');
      if (!force && ids === knownIds) {
        if ([...known.values()].some(each => each.source !== undefined)) {
          // A source's tools change without tools/ changing: ask it again.
          await relistSources(known, new Set(), bounded, log);
          offer(known);
        }
        return 'read';
      }
      petNames = await bounded<string[]>('listing tools/', () => E(powers).list(TOOLS_DIRECTORY));
    } catch (error) {
      // The caller makes it again (the tools at the top level move in), then reads it.
      if (isCollectedFormula(error)) return 'collected';
      // Keep offering what we had: a directory that cannot be read now may be readable at the next message.
      log(`could not read tools/ (${describeError(error)}); the tools known before stay offered`);
      return 'read';
    }
    // The ids are known only once tools/ was read whole: a read that fails part-way is done again.
    let whole = true;
    const next = new Map<string, Known>();
    const loaded = new Set<Known>();
    await Promise.all(
      petNames.map(async petName => {
        const before = known.get(petName);
        let id: unknown;
        try {
          id = await bounded('identify', () => E(powers).identify(TOOLS_DIRECTORY, petName));
        } catch (error) {
          log(`tools/${petName}: ${describeError(error)}`);
          if (before !== undefined) next.set(petName, before);
          // Read again next time: what we keep may be stale.
          whole = false;
          return;
        }
        if (typeof id !== 'string') return;
        if (before !== undefined && before.id === id) {
          next.set(petName, before);
        } else {
          const fresh = await load(petName, id);
          loaded.add(fresh);
          next.set(petName, fresh);
        }
      }),
    );
    known = next;
    knownIds = whole && !aliased(next) ? ids : undefined;
    // A source just loaded was listed in load(); the others are asked again.
    await relistSources(next, loaded, bounded, log);
    offer(next);
    return 'read';
  };

  return {
    refresh,
    schemas: () => [...byName.values()].map(entry => entry.schema),
    knownId: petName => known.get(petName)?.id,
    hasSources: () => [...known.values()].some(each => each.source !== undefined),
    find: name => byName.get(name),
    refusal: petName => notOffered.get(petName),
    refused: () => [...notOffered].map(([petName, reason]) => ({ petName, reason })),
    offeredBy: () => whoGave(byName, known, givers),
  };
};
harden(makeToolRegistry);
