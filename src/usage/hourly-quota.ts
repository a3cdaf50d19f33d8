/**
 * Hourly budgets for model calls and tokens (LAL_MAX_CALLS_PER_HOUR,
 * LAL_MAX_TOKENS_PER_HOUR), counted over the last hour's calls. When one is
 * spent, the time it frees up again says when the agent can go on.
 */
import type { HourlyQuota } from '../settings/hourly-quota-settings.js';
import { formatCount } from './format-count.js';
import { callsIn, HOUR_MS, type UsageLedger } from './usage-ledger.js';

export interface QuotaWait {
  /** When the agent can go on (ms since the epoch). */
  until: number;
  /** Which budget is spent, in words. */
  reason: string;
}

/** Undefined while both budgets have room; else when the spent one frees up. */
export const quotaWait = (
  ledger: UsageLedger,
  quota: HourlyQuota,
  now: number,
): QuotaWait | undefined => {
  const window = ledger.recent.filter(([at]) => at > now - HOUR_MS);
  let wait: QuotaWait | undefined;
  const later = (candidate: QuotaWait) => {
    if (wait === undefined || candidate.until > wait.until) wait = candidate;
  };
  const calls = callsIn(window);
  if (quota.maxCalls !== undefined && calls >= quota.maxCalls) {
    // Room for one more call once enough of the oldest have left the window.
    let left = calls;
    let index = 0;
    while (left >= quota.maxCalls && index < window.length) {
      left -= window[index]![2];
      index += 1;
    }
    later({
      until: window[index - 1]![0] + HOUR_MS,
      reason: `${calls} of ${quota.maxCalls} model calls this hour (LAL_MAX_CALLS_PER_HOUR)`,
    });
  }
  if (quota.maxTokens !== undefined) {
    let spent = window.reduce((sum, [, tokens]) => sum + tokens, 0);
    const total = spent;
    if (spent >= quota.maxTokens) {
      let index = 0;
      while (spent >= quota.maxTokens && index < window.length) {
        spent -= window[index]![1];
        index += 1;
      }
      later({
        until: window[index - 1]![0] + HOUR_MS,
        reason: `${formatCount(total)} of ${formatCount(quota.maxTokens)} tokens this hour (LAL_MAX_TOKENS_PER_HOUR)`,
      });
    }
  }
  return wait;
};
harden(quotaWait);

/** For help(): how much of each budget the last hour used. */
export const describeQuota = (ledger: UsageLedger, quota: HourlyQuota, now: number): string[] => {
  const window = ledger.recent.filter(([at]) => at > now - HOUR_MS);
  const lines: string[] = [];
  if (quota.maxCalls !== undefined)
    lines.push(
      `this hour: ${callsIn(window)} of ${quota.maxCalls} model calls (LAL_MAX_CALLS_PER_HOUR)`,
    );
  if (quota.maxTokens !== undefined) {
    const tokens = window.reduce((sum, [, spent]) => sum + spent, 0);
    lines.push(
      `this hour: ${formatCount(tokens)} of ${formatCount(quota.maxTokens)} tokens (LAL_MAX_TOKENS_PER_HOUR)`,
    );
  }
  const wait = quotaWait(ledger, quota, now);
  if (wait !== undefined)
    lines.push(`budget spent; new work waits until ${new Date(wait.until).toISOString()}`);
  return lines;
};
harden(describeQuota);
