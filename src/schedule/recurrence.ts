/**
 * What `schedule`'s `every` and `until` say, read once: a period ("30m"),
 * a cron expression ("cron 0 9 * * 1-5"), an item of the heartbeat's
 * checklist ("heartbeat", "heartbeat 2h"), or a trigger ("mail from bob",
 * "change in inbox"); and when runs stop (a time, or a count). The stored
 * form is the normalised text, read again here whenever it is needed, so
 * the one reader is the one source of what a schedule means.
 */
import { countCronRuns, nextCronTime, parseCron, type Cron } from './cron.js';
import { formatDuration, parseDuration, readDuration } from '../settings/durations.js';

export type Every =
  | { kind: 'period'; ms: number }
  | { kind: 'cron'; cron: Cron }
  | { kind: 'heartbeat'; ms: number | undefined }
  | { kind: 'mail'; sender: string }
  | { kind: 'change'; path: string };

export interface ReadEvery {
  every: Every;
  /** The end written after it ("until 2026-12-31", "5 times"), for readUntil. */
  until: string | undefined;
  /** The normalised text the store keeps. */
  text: string;
  /** Runs missed while the agent was down are skipped instead of coalesced into one. */
  skipMissed: boolean;
}

const EXAMPLES =
  'e.g. "30m", "2h", "1d", "cron 0 9 * * 1-5", "heartbeat", "mail from bob" or "change in inbox"';
const SKIP = /[,;]?\s*\(?skip(?:ping)? missed(?: runs)?\)?$/i;
/** An end written after the period: "…, until 2026-12-31T18:00Z" or "…, 5 times". */
const END = /[,;]?\s+(?:until\s+(\S+)|(\d+\s*(?:times?|runs?)))$/i;

export const readEvery = (raw: string, minPeriodMs: number): ReadEvery => {
  let rest = raw.trim();
  const skipMissed = SKIP.test(rest);
  rest = rest.replace(SKIP, '').trim();
  const end = END.exec(rest);
  if (end !== null) rest = rest.slice(0, end.index).trim();
  const until = end === null ? undefined : (end[1] ?? end[2]);
  const text = rest.replace(/^every\s+/i, '');
  const lower = text.toLowerCase();
  const atLeast = (ms: number, what: string) => {
    if (ms < minPeriodMs)
      throw new Error(
        `every: ${what} is more often than the ${formatDuration(minPeriodMs)} allowed (LAL_MIN_SCHEDULE_SECONDS); e.g. "${formatDuration(Math.max(minPeriodMs, 1_800_000))}"`,
      );
  };
  let every: Every;
  let normal: string;
  // Five fields of digits and * , / - are cron without its word; names need "cron ".
  if (lower.startsWith('cron ') || /^[\d*,/-]+(\s+[\d*,/-]+){4}$/.test(text)) {
    const cron = parseCron(lower.startsWith('cron ') ? text.slice(5) : text);
    every = { kind: 'cron', cron };
    normal = `cron ${cron.text}`;
  } else if (lower === 'heartbeat' || lower.startsWith('heartbeat ')) {
    const period = text.slice('heartbeat'.length).trim();
    const ms = period === '' ? undefined : parseDuration(period, 'every');
    if (ms !== undefined) atLeast(ms, JSON.stringify(period));
    every = { kind: 'heartbeat', ms };
    normal = ms === undefined ? 'heartbeat' : `heartbeat ${formatDuration(ms)}`;
  } else if (lower.startsWith('mail from ')) {
    const sender = text.slice('mail from '.length).trim();
    if (!/^[A-Za-z0-9@][\w@.-]*$/.test(sender))
      throw new Error(
        `every: "mail from" wants one pet name, e.g. "mail from bob"; got ${JSON.stringify(sender)}`,
      );
    every = { kind: 'mail', sender };
    normal = `mail from ${sender}`;
  } else if (lower.startsWith('change in ')) {
    const path = text.slice('change in '.length).trim().replace(/\/+$/, '');
    if (path === '')
      throw new Error('every: "change in" wants a directory you hold, e.g. "change in inbox"');
    every = { kind: 'change', path };
    normal = `change in ${path}`;
  } else {
    const ms = readDuration(text);
    if (ms === undefined)
      throw new Error(`every: ${JSON.stringify(raw)} is not a period or trigger; ${EXAMPLES}`);
    atLeast(ms, JSON.stringify(text));
    every = { kind: 'period', ms };
    normal = formatDuration(ms);
  }
  return harden({ every, text: normal, skipMissed, until });
};
harden(readEvery);

/** Whether the schedule runs on the clock (a period or cron), as opposed to the heartbeat or a trigger. */
export const onTheClock = (every: Every): every is Extract<Every, { kind: 'period' | 'cron' }> =>
  every.kind === 'period' || every.kind === 'cron';
harden(onTheClock);

/** The next run after `after` of a schedule on the clock (undefined: never again). */
export const nextRun = (
  every: Extract<Every, { kind: 'period' | 'cron' }>,
  after: number,
  timeZone: string,
): number | undefined =>
  every.kind === 'period' ? after + every.ms : nextCronTime(every.cron, after, timeZone);
harden(nextRun);

/** Cron runs counted at most when catching up (a period's count is exact); the time since says the rest. */
const MAX_COUNTED = 10_000;

/**
 * The runs due from `due` (the stored next run) up to `now`, and the first
 * run after `now`: a period steps from `due`, so runs keep their rhythm.
 */
export const runsUntil = (
  every: Extract<Every, { kind: 'period' | 'cron' }>,
  due: number,
  now: number,
  timeZone: string,
): { count: number; next: number | undefined } => {
  if (due > now) return { count: 0, next: due };
  if (every.kind === 'period') {
    const count = Math.floor((now - due) / every.ms) + 1;
    return { count, next: due + count * every.ms };
  }
  // The run at `due` and those after it up to now, counted by croner (no loop of ours a mutation
  // could make endless); the next is the first after now.
  return {
    count: 1 + countCronRuns(every.cron, due, now, timeZone, MAX_COUNTED - 1),
    next: nextCronTime(every.cron, now, timeZone),
  };
};
harden(runsUntil);

/** `until`: an ISO 8601 time, or a count of runs ("5", "5 times"). */
export const readUntil = (raw: string, now: number): { endsAt: number } | { runsLeft: number } => {
  const text = raw.trim();
  const count = /^(\d+)(?:\s*(?:times?|runs?))?$/i.exec(text);
  if (count !== null) {
    const runsLeft = Number(count[1]);
    if (runsLeft < 1) throw new Error('until: a count of runs must be at least 1, e.g. "5 times"');
    return { runsLeft };
  }
  const endsAt = Date.parse(text);
  if (Number.isNaN(endsAt))
    throw new Error(
      `until: ${JSON.stringify(raw)} is neither a time nor a count; e.g. "2026-12-31T18:00:00Z" or "5 times"`,
    );
  if (endsAt <= now)
    throw new Error(`until: ${text} has passed already; it is now ${new Date(now).toISOString()}`);
  return { endsAt };
};
harden(readUntil);
