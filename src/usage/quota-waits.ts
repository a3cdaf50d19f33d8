/**
 * Work that arrives while an hourly budget is spent is held with the
 * agent's holds (../lifecycle/holds.ts), in order, and goes back on the
 * agent's queue when the budget frees up; nothing is dropped. Whether and
 * until when is the pure judge `quotaWait` (./hourly-quota.ts). The sender
 * of a waiting message is told once when the agent can go on (its told
 * mark is with the holds too).
 */
import type { HourlyQuota } from '../settings/hourly-quota-settings.js';
import type { Clock } from '../lifecycle/clock.js';
import { holdKey, type Holds } from '../lifecycle/holds.js';
import { quotaWait, type QuotaWait } from './hourly-quota.js';
import type { UsageLedger } from './usage-ledger.js';

export interface QuotaWaits<W> {
  /** Undefined when the budgets have room; else when they free up. */
  check(): QuotaWait | undefined;
  /** Keeps `work` until `wait.until`, then puts it back on the queue. */
  hold(work: W, wait: QuotaWait): void;
  /** Keeps `work` until the budgets have room again (at once back on the queue when they have). */
  holdUntilFree(work: W): void;
}

export const makeQuotaWaits = <W>(options: {
  clock: Clock;
  quota: HourlyQuota;
  ledger: () => UsageLedger;
  holds: Holds<W>;
  requeue: (work: W) => void;
}): QuotaWaits<W> => {
  const { clock, quota, ledger, holds, requeue } = options;
  const check = () => quotaWait(ledger(), quota, clock.now());
  const hold = (work: W, wait: QuotaWait) => holds.park(holdKey.quota, work, wait.until);
  return {
    check,
    hold,
    holdUntilFree(work) {
      const wait = check();
      if (wait === undefined) requeue(work);
      else hold(work, wait);
    },
  };
};
harden(makeQuotaWaits);

/** What the sender of a held message is told. */
export const quotaNotice = (wait: QuotaWait, number: bigint, now: number): string => {
  const minutes = Math.max(1, Math.ceil((wait.until - now) / 60_000));
  return `I have used this hour's budget (${wait.reason}). Your message #${number} is kept, and I will take it up at ${new Date(wait.until).toISOString()} (in about ${minutes} minute${minutes === 1 ? '' : 's'}).`;
};
harden(quotaNotice);
