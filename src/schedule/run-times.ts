/**
 * When a schedule runs: its first run from what the model gave (a time, a
 * delay, or the next of its `every`), and after each run the next, with how
 * many runs fell due meanwhile (a day down is one run that counts them).
 */
import { nextRun, onTheClock, runsUntil, type Every } from './recurrence.js';
import type { WakeUp } from './wake-up-record.js';

/** A wake-up more than a year away is refused: almost surely a mistake of units. */
const MAX_HORIZON_MS = 366 * 24 * 60 * 60 * 1000;

const EITHER =
  'Give either delaySeconds (a number of seconds from now) or at (an ISO 8601 time such as 2026-05-01T09:00:00Z), not both and not neither';

export interface TimeSettings {
  timeZone: string;
  heartbeatMs: number;
  minPeriodMs: number;
}

/** A one-shot's time, or a recurring one's first given as a time or delay. */
const givenTime = (delaySeconds: number | undefined, atText: string | undefined, now: number) => {
  if (delaySeconds !== undefined && atText !== undefined) throw new Error(EITHER);
  let at: number;
  if (delaySeconds !== undefined) {
    if (!Number.isFinite(delaySeconds) || delaySeconds <= 0)
      throw new Error('delaySeconds must be a positive number of seconds');
    at = now + Math.round(delaySeconds * 1000);
  } else {
    at = Date.parse(atText!);
    if (Number.isNaN(at))
      throw new Error(
        `at must be an ISO 8601 time such as 2026-05-01T09:00:00Z; got ${JSON.stringify(atText)}`,
      );
    if (at <= now)
      throw new Error(`${atText} has passed already; it is now ${new Date(now).toISOString()}`);
  }
  if (at - now > MAX_HORIZON_MS) throw new Error('A wake-up may be at most a year away');
  return at;
};

export const firstRun = (
  args: { delaySeconds: number | undefined; at: string | undefined; every?: string | undefined },
  now: number,
  every: Every | undefined,
  settings: TimeSettings,
): number => {
  if (args.delaySeconds !== undefined || args.at !== undefined)
    return givenTime(args.delaySeconds, args.at, now);
  if (every === undefined) throw new Error(EITHER);
  if (every.kind === 'heartbeat') return now + (every.ms ?? settings.heartbeatMs);
  if (!onTheClock(every)) return now;
  const at = nextRun(every, now, settings.timeZone);
  if (at === undefined)
    throw new Error(
      `every: ${JSON.stringify(args.every)} never comes (no such date within five years)`,
    );
  return at;
};
harden(firstRun);

/** Moves a recurring entry past `now`, counting the run; `goesOn` false when it has ended. */
export const advanceRun = (
  entry: WakeUp,
  every: Every,
  now: number,
  settings: TimeSettings,
): { missed: number; goesOn: boolean } => {
  let missed = 1;
  if (every.kind === 'heartbeat') {
    // One look covers every check missed: the next is a whole period on.
    entry.at = now + (every.ms ?? settings.heartbeatMs);
  } else if (onTheClock(every)) {
    const runs = runsUntil(every, entry.at, now, settings.timeZone);
    missed = Math.max(1, runs.count);
    if (runs.next === undefined) return { missed, goesOn: false };
    entry.at = runs.next;
  } else {
    // A trigger may fire again after the minimum period.
    entry.at = now + settings.minPeriodMs;
  }
  entry.runs = (entry.runs ?? 0) + 1;
  if (entry.runsLeft !== undefined) entry.runsLeft -= 1;
  const goesOn =
    (entry.runsLeft === undefined || entry.runsLeft > 0) &&
    (entry.endsAt === undefined || entry.at <= entry.endsAt);
  return { missed, goesOn };
};
harden(advanceRun);

/** Taken up again from `now` (after a pause): what fell due meanwhile is not run. */
export const resumedAt = (
  entry: WakeUp,
  every: Every | undefined,
  now: number,
  settings: TimeSettings,
) => {
  if (every === undefined || entry.at > now) return entry.at;
  if (every.kind === 'heartbeat') return now + (every.ms ?? settings.heartbeatMs);
  if (onTheClock(every)) return runsUntil(every, entry.at, now, settings.timeZone).next ?? now;
  return entry.at;
};
harden(resumedAt);
