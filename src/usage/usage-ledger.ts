/**
 * What the model has cost so far: calls and tokens (in, out, cached) per
 * model since the memory was last cleared, and the calls of the last hour
 * that the hourly quotas count. Plain data, kept in the agent's store.
 */
import type { Usage } from '../../providers/types.js';
import { formatCount } from './format-count.js';

export const HOUR_MS = 60 * 60 * 1000;
harden(HOUR_MS);

interface ModelUsage {
  calls: number;
  inputTokens: number;
  outputTokens: number;
  cachedInputTokens: number;
}

export interface UsageLedger {
  /** When counting began (ms since the epoch). */
  since: number;
  byModel: Record<string, ModelUsage>;
  /**
   * The last hour's model calls, one entry per clock minute that had any:
   * [when the minute's last call was made, tokens in + out, calls]. One
   * entry per call would grow the store by one entry per call at any rate;
   * a minute's calls leave the window together, at most a minute late.
   */
  recent: RecentCalls[];
}

/** [when, tokens, calls]; a version 2 store held [when, tokens], one call each. */
export type RecentCalls = [number, number, number];

/** The quotas' window holds calls by the clock minute (≤ 61 entries in an hour). */
const MINUTE_MS = 60 * 1000;

export const emptyUsage = (now: number): UsageLedger => ({ since: now, byModel: {}, recent: [] });
harden(emptyUsage);

const isCount = (value: unknown): value is number =>
  typeof value === 'number' && Number.isFinite(value) && value >= 0;

export const isUsageLedger = (value: unknown): value is UsageLedger => {
  if (value === null || typeof value !== 'object') return false;
  const record = value as Record<string, unknown>;
  const byModel = record.byModel as Record<string, unknown> | undefined;
  return (
    isCount(record.since) &&
    byModel !== null &&
    typeof byModel === 'object' &&
    Object.values(byModel).every(entry => {
      const counts = entry as Record<string, unknown> | null;
      return (
        counts !== null &&
        typeof counts === 'object' &&
        isCount(counts.calls) &&
        isCount(counts.inputTokens) &&
        isCount(counts.outputTokens)
      );
    }) &&
    Array.isArray(record.recent) &&
    record.recent.every(
      entry =>
        Array.isArray(entry) &&
        (entry.length === 2 || entry.length === 3) &&
        (entry as unknown[]).every(isCount),
    )
  );
};
harden(isUsageLedger);

/** A stored ledger in today's shape: a version 2 store's [when, tokens] pairs count one call each. */
export const migrateUsage = (ledger: UsageLedger): UsageLedger => ({
  ...ledger,
  recent: (ledger.recent as number[][]).map(([at, tokens, calls]) => [at!, tokens!, calls ?? 1]),
});
harden(migrateUsage);

/** Calls in the window. */
export const callsIn = (entries: readonly RecentCalls[]): number =>
  entries.reduce((sum, [, , calls]) => sum + calls, 0);
harden(callsIn);

/** Drops what is more than an hour old from the quota's window. */
export const pruneRecent = (ledger: UsageLedger, now: number): void => {
  const keepFrom = ledger.recent.findIndex(([at]) => at > now - HOUR_MS);
  if (keepFrom === -1) ledger.recent.length = 0;
  else if (keepFrom > 0) ledger.recent.splice(0, keepFrom);
};
harden(pruneRecent);

export const recordUsage = (
  ledger: UsageLedger,
  model: string,
  usage: Usage | undefined,
  now: number,
): void => {
  const entry = ledger.byModel[model] ?? {
    calls: 0,
    inputTokens: 0,
    outputTokens: 0,
    cachedInputTokens: 0,
  };
  ledger.byModel[model] = entry;
  entry.calls += 1;
  entry.inputTokens += usage?.inputTokens ?? 0;
  entry.outputTokens += usage?.outputTokens ?? 0;
  entry.cachedInputTokens = (entry.cachedInputTokens ?? 0) + (usage?.cachedInputTokens ?? 0);
  pruneRecent(ledger, now);
  const tokens = (usage?.inputTokens ?? 0) + (usage?.outputTokens ?? 0);
  const last = ledger.recent.at(-1);
  // Same clock minute as the last entry: add to it (its time becomes this call's), so the window holds ≤ 61 entries.
  if (
    last !== undefined &&
    Math.floor(last[0] / MINUTE_MS) === Math.floor(now / MINUTE_MS) &&
    now >= last[0]
  ) {
    last[0] = now;
    last[1] += tokens;
    last[2] += 1;
  } else ledger.recent.push([now, tokens, 1]);
};
harden(recordUsage);

const count = formatCount;

/** For help(): one line per model and a total. */
export const describeUsage = (ledger: UsageLedger): string[] => {
  const models = Object.entries(ledger.byModel);
  if (models.length === 0) return [`no model calls since ${new Date(ledger.since).toISOString()}`];
  const line = (name: string, usage: ModelUsage) =>
    `${name}: ${count(usage.calls)} call${usage.calls === 1 ? '' : 's'}, ${count(usage.inputTokens)} tokens in (${count(usage.cachedInputTokens ?? 0)} cached) / ${count(usage.outputTokens)} out`;
  const total = models.reduce(
    (sum, [, usage]) => ({
      calls: sum.calls + usage.calls,
      inputTokens: sum.inputTokens + usage.inputTokens,
      outputTokens: sum.outputTokens + usage.outputTokens,
      cachedInputTokens: sum.cachedInputTokens + (usage.cachedInputTokens ?? 0),
    }),
    { calls: 0, inputTokens: 0, outputTokens: 0, cachedInputTokens: 0 },
  );
  return [
    line(`since ${new Date(ledger.since).toISOString()}, in all`, total),
    ...(models.length > 1 || models[0]![0] !== ''
      ? models.map(([name, usage]) => line(name, usage))
      : []),
  ];
};
harden(describeUsage);
