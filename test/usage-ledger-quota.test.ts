/**
 * Usage and hourly budgets as modules: the ledger counts calls and tokens
 * per model and keeps only the last hour for the quotas; the quota says
 * when a spent budget frees up (the later of the two when both are spent);
 * held work goes back on the queue, in order, when that time comes, and
 * the sender's notice says when.
 */
import type { HourlyQuota } from '../src/settings/hourly-quota-settings.js';
import { describe, expect, test } from 'vitest';
import {
  describeUsage,
  emptyUsage,
  HOUR_MS,
  pruneRecent,
  recordUsage,
} from '../src/usage/usage-ledger.js';
import { describeQuota, quotaWait } from '../src/usage/hourly-quota.js';
import { makeQuotaWaits, quotaNotice } from '../src/usage/quota-waits.js';
import { makeHolds } from '../src/lifecycle/holds.js';
import { makeManualClock } from './support/manual-clock.js';

const T0 = Date.UTC(2026, 10, 23, 9, 0, 0);
const budget = (quota: Partial<HourlyQuota>): HourlyQuota => ({
  maxCalls: undefined,
  maxTokens: undefined,
  ...quota,
});
const iso = (ms: number) => new Date(ms).toISOString();

describe('usage ledger', () => {
  test('counts calls and tokens per model; a call without usage counts as a call', () => {
    const ledger = emptyUsage(T0);
    recordUsage(
      ledger,
      'qwen',
      { inputTokens: 1_200, outputTokens: 30, cachedInputTokens: 1_000 },
      T0 + 1,
    );
    recordUsage(ledger, 'qwen', undefined, T0 + 2);
    expect(ledger.byModel.qwen).toEqual({
      calls: 2,
      inputTokens: 1_200,
      outputTokens: 30,
      cachedInputTokens: 1_000,
    });
    // Both calls fell in the same clock minute: one entry, at the later call's time.
    expect(ledger.recent).toEqual([[T0 + 2, 1_230, 2]]);
    expect(describeUsage(ledger)).toEqual([
      `since ${iso(T0)}, in all: 2 calls, 1,200 tokens in (1,000 cached) / 30 out`,
      'qwen: 2 calls, 1,200 tokens in (1,000 cached) / 30 out',
    ]);
  });

  test('no calls yet says so; a stored entry without cached tokens reads as none cached', () => {
    const ledger = emptyUsage(T0);
    expect(describeUsage(ledger)).toEqual([`no model calls since ${iso(T0)}`]);
    // A ledger stored before cached tokens were counted.
    ledger.byModel.old = {
      calls: 1,
      inputTokens: 5,
      outputTokens: 1,
    } as (typeof ledger.byModel)[string];
    ledger.byModel.new = { calls: 1, inputTokens: 5, outputTokens: 1, cachedInputTokens: 2 };
    expect(describeUsage(ledger)[0]).toBe(
      `since ${iso(T0)}, in all: 2 calls, 10 tokens in (2 cached) / 2 out`,
    );
    expect(describeUsage(ledger)[1]).toBe('old: 1 call, 5 tokens in (0 cached) / 1 out');
    recordUsage(ledger, 'old', undefined, T0);
    expect(ledger.byModel.old.cachedInputTokens).toBe(0);
  });

  test('a single unnamed model is shown by its total only', () => {
    const ledger = emptyUsage(T0);
    recordUsage(ledger, '', { inputTokens: 1, outputTokens: 1 }, T0);
    expect(describeUsage(ledger)).toHaveLength(1);
  });

  test('only the last hour is kept for the quotas', () => {
    const ledger = emptyUsage(T0);
    ledger.recent.push([T0, 1, 1], [T0 + 10, 2, 1], [T0 + HOUR_MS, 3, 1]);
    pruneRecent(ledger, T0 + HOUR_MS + 5);
    expect(ledger.recent).toEqual([
      [T0 + 10, 2, 1],
      [T0 + HOUR_MS, 3, 1],
    ]);
    pruneRecent(ledger, T0 + 3 * HOUR_MS);
    expect(ledger.recent).toEqual([]);
    ledger.recent.push([T0, 1, 1]);
    pruneRecent(ledger, T0);
    expect(ledger.recent).toEqual([[T0, 1, 1]]);
  });
});

describe('hourly quota', () => {
  const ledgerWith = (calls: [number, number, number][]) => ({ ...emptyUsage(T0), recent: calls });

  test('with room in both budgets there is no wait', () => {
    expect(
      quotaWait(ledgerWith([[T0, 10, 1]]), budget({ maxCalls: 2, maxTokens: 100 }), T0 + 1),
    ).toBeUndefined();
    expect(quotaWait(ledgerWith([[T0, 10, 1]]), budget({}), T0 + 1)).toBeUndefined();
  });

  test('a spent call budget frees up when enough of the oldest calls leave the hour', () => {
    const wait = quotaWait(
      ledgerWith([
        [T0, 1, 1],
        [T0 + 60_000, 1, 1],
        [T0 + 120_000, 1, 1],
      ]),
      budget({ maxCalls: 2 }),
      T0 + 180_000,
    );
    expect(wait).toEqual({
      until: T0 + 60_000 + HOUR_MS,
      reason: '3 of 2 model calls this hour (LAL_MAX_CALLS_PER_HOUR)',
    });
  });

  test('a spent token budget frees up when enough tokens leave; the later of two spent budgets wins', () => {
    const ledger = ledgerWith([
      [T0, 600, 1],
      [T0 + 60_000, 600, 1],
      [T0 + 120_000, 10, 1],
    ]);
    // Once the first call leaves the hour, 610 of 1,000 tokens are spent: room again.
    expect(quotaWait(ledger, budget({ maxTokens: 1_000 }), T0 + 180_000)).toEqual({
      until: T0 + HOUR_MS,
      reason: '1,210 of 1,000 tokens this hour (LAL_MAX_TOKENS_PER_HOUR)',
    });
    // 600 tokens an hour: both 600-token calls must leave, later than the call budget (3) frees up.
    expect(quotaWait(ledger, budget({ maxTokens: 600, maxCalls: 3 }), T0 + 180_000)).toEqual({
      until: T0 + 60_000 + HOUR_MS,
      reason: '1,210 of 600 tokens this hour (LAL_MAX_TOKENS_PER_HOUR)',
    });
    expect(quotaWait(ledger, budget({ maxTokens: 1_000, maxCalls: 1 }), T0 + 180_000)).toEqual({
      until: T0 + 120_000 + HOUR_MS,
      reason: '3 of 1 model calls this hour (LAL_MAX_CALLS_PER_HOUR)',
    });
  });

  test('help shows each budget and, when spent, until when', () => {
    const ledger = ledgerWith([[T0, 1_500, 1]]);
    expect(describeQuota(ledger, budget({ maxCalls: 5, maxTokens: 1_000 }), T0 + 1)).toEqual([
      'this hour: 1 of 5 model calls (LAL_MAX_CALLS_PER_HOUR)',
      'this hour: 1,500 of 1,000 tokens (LAL_MAX_TOKENS_PER_HOUR)',
      `budget spent; new work waits until ${iso(T0 + HOUR_MS)}`,
    ]);
    expect(describeQuota(ledger, budget({}), T0 + 1)).toEqual([]);
  });
});

describe('held work', () => {
  test('held work goes back on the queue in order when the latest wait is over, and stop disarms', () => {
    const clock = makeManualClock(T0);
    const requeued: string[] = [];
    const requeue = (work: string) => requeued.push(work);
    const holds = makeHolds<string>({ clock, requeue, told: [] });
    const waits = makeQuotaWaits<string>({
      clock,
      quota: budget({ maxCalls: 1 }),
      ledger: () => emptyUsage(T0),
      holds,
      requeue,
    });
    expect(waits.check()).toBeUndefined();
    waits.hold('a', { until: T0 + 1_000, reason: 'r' });
    // A shorter wait does not bring the release forward; a longer one pushes it back.
    waits.hold('b', { until: T0 + 500, reason: 'r' });
    waits.hold('c', { until: T0 + 2_000, reason: 'r' });
    clock.advance(1_000);
    expect(requeued).toEqual([]);
    clock.advance(1_000);
    expect(requeued).toEqual(['a', 'b', 'c']);
    waits.hold('d', { until: T0 + 3_000, reason: 'r' });
    holds.stop();
    clock.advance(5_000);
    expect(requeued).toEqual(['a', 'b', 'c']);
  });

  test("the sender's notice says when, in whole minutes, at least one", () => {
    expect(quotaNotice({ until: T0 + 30_000, reason: '5 of 5 model calls' }, 4n, T0)).toBe(
      `I have used this hour's budget (5 of 5 model calls). Your message #4 is kept, and I will take it up at ${iso(T0 + 30_000)} (in about 1 minute).`,
    );
    expect(quotaNotice({ until: T0 + 150_000, reason: 'x' }, 4n, T0)).toContain(
      '(in about 3 minutes)',
    );
  });
});
