/**
 * Five-field cron expressions (minute hour day-of-month month day-of-week),
 * read in the agent's time zone by croner, a kept library (issue 43: the
 * hand-written reader's surviving mutations sat here): lists, ranges, steps,
 * English month and day names, Sunday as 0 or 7, and the usual rule that when
 * both day fields are restricted either may match. A wrong expression gets a
 * one-line error with an example.
 */
import { Cron as CronJob } from 'croner';

/** A cron expression as read: its text, trimmed and with single spaces (the store keeps it). */
export interface Cron {
  text: string;
}

const EXAMPLE = 'e.g. "0 9 * * 1-5" (09:00 on weekdays) or "*/30 * * * *" (every half hour)';

const fail = (text: string, why: string): never => {
  throw new Error(`cron ${JSON.stringify(text)}: ${why}; ${EXAMPLE}`);
};

/**
 * A job that only answers when it would run (croner schedules a job only when given a function):
 * five fields, either day field may match, no run at or after `stopAt` (ms) when given.
 */
const jobOf = (text: string, timeZone: string, stopAt?: number) =>
  new CronJob(text, {
    timezone: timeZone,
    mode: '5-part',
    domAndDow: false,
    ...(stopAt === undefined ? {} : { stopAt: new Date(stopAt) }),
  });

export const parseCron = (expression: string): Cron => {
  const text = expression.trim().replace(/\s+/g, ' ');
  const fields = text.split(' ');
  if (fields.length !== 5)
    fail(
      text,
      `a cron expression has 5 fields (minute hour day month weekday), not ${fields.length}`,
    );
  try {
    jobOf(text, 'UTC');
  } catch (error) {
    fail(
      text,
      (error instanceof Error ? error.message : String(error)).replace(/^CronPattern: /, ''),
    );
  }
  return harden({ text });
};
harden(parseCron);

/** The first time after `after` (ms) the expression fires, or undefined when it never does. */
export const nextCronTime = (cron: Cron, after: number, timeZone: string): number | undefined => {
  const next = jobOf(cron.text, timeZone).nextRun(new Date(after));
  return next === null ? undefined : next.getTime();
};
harden(nextCronTime);

/** How many times the expression fires after `after` up to `until` itself (ms), counting at most `most`. */
export const countCronRuns = (
  cron: Cron,
  after: number,
  until: number,
  timeZone: string,
  most: number,
): number => jobOf(cron.text, timeZone, until + 1).nextRuns(most, new Date(after)).length;
harden(countCronRuns);
