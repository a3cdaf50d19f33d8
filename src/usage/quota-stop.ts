/**
 * The hourly budgets checked before every model call of a turn, not only
 * when work starts: a turn that would go past one stops before that call.
 * What the sender is told then says when the message is taken up again; the
 * serving loop holds the message until that time (usage/quota-waits.ts).
 */
import type { Clock } from '../lifecycle/clock.js';
import type { Origin } from '../mail/origin.js';
import type { QuotaWait } from './hourly-quota.js';

/** Why the turn stops now, for the sender (undefined: the budgets have room). */
export type QuotaStop = (origin: Origin | undefined) => string | undefined;

const quotaStopNotice = (wait: QuotaWait, origin: Origin | undefined, now: number): string => {
  const minutes = Math.max(1, Math.ceil((wait.until - now) / 60_000));
  const which = origin === undefined ? 'this' : `your message #${origin.number}`;
  const kept = origin === undefined ? 'I will go on' : 'It is kept, and I will take it up again';
  return `I have used this hour's budget (${wait.reason}) part-way through ${which}. ${kept} at ${new Date(wait.until).toISOString()} (in about ${minutes} minute${minutes === 1 ? '' : 's'}).`;
};

export const makeQuotaStop =
  (check: () => QuotaWait | undefined, clock: Clock): QuotaStop =>
  origin => {
    const wait = check();
    return wait === undefined ? undefined : quotaStopNotice(wait, origin, clock.now());
  };
harden(makeQuotaStop);
