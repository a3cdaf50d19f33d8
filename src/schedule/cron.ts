/**
 * Five-field cron expressions (minute hour day-of-month month day-of-week),
 * read in the agent's time zone: lists, ranges, steps and English month and
 * day names, Sunday as 0 or 7, and the usual rule that when both day fields
 * are restricted either may match. A wrong expression gets a one-line error
 * with an example.
 */
import { zonedFields, type ZonedFields } from './zoned-time.js';

export interface Cron {
  /** The expression as given, trimmed and with single spaces. */
  text: string;
  minutes: ReadonlySet<number>;
  hours: ReadonlySet<number>;
  days: ReadonlySet<number>;
  months: ReadonlySet<number>;
  weekdays: ReadonlySet<number>;
  /** Whether each day field was restricted (not "*"). */
  daysRestricted: boolean;
  weekdaysRestricted: boolean;
}

const EXAMPLE = 'e.g. "0 9 * * 1-5" (09:00 on weekdays) or "*/30 * * * *" (every half hour)';
const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
const DAYS = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'];

interface FieldRule {
  name: string;
  min: number;
  max: number;
  names?: readonly string[];
  /** The first name's number (months count from 1). */
  namesFrom?: number;
}

const FIELDS: readonly FieldRule[] = [
  { name: 'minute', min: 0, max: 59 },
  { name: 'hour', min: 0, max: 23 },
  { name: 'day of month', min: 1, max: 31 },
  { name: 'month', min: 1, max: 12, names: MONTHS, namesFrom: 1 },
  { name: 'day of week', min: 0, max: 7, names: DAYS, namesFrom: 0 },
];

const fail = (text: string, why: string): never => {
  throw new Error(`cron ${JSON.stringify(text)}: ${why}; ${EXAMPLE}`);
};

const readValue = (text: string, word: string, rule: FieldRule): number => {
  const named = rule.names?.indexOf(word.toLowerCase()) ?? -1;
  const value =
    named >= 0 ? named + (rule.namesFrom ?? 0) : /^\d+$/.test(word) ? Number(word) : NaN;
  if (!Number.isInteger(value) || value < rule.min || value > rule.max)
    return fail(text, `${JSON.stringify(word)} is not a ${rule.name} (${rule.min}-${rule.max})`);
  return value;
};

const readField = (text: string, field: string, rule: FieldRule): Set<number> => {
  const values = new Set<number>();
  for (const item of field.split(',')) {
    const [range = '', stepText, extra] = item.split('/');
    if (extra !== undefined || range === '')
      fail(text, `${JSON.stringify(item)} is not a ${rule.name}`);
    let step = 1;
    if (stepText !== undefined) {
      if (!/^\d+$/.test(stepText) || Number(stepText) === 0)
        fail(text, `the step in ${JSON.stringify(item)} must be a whole number above 0`);
      step = Number(stepText);
    }
    let from: number;
    let to: number;
    if (range === '*') {
      from = rule.min;
      to = rule.max;
    } else {
      const [low = '', high, more] = range.split('-');
      if (more !== undefined) fail(text, `${JSON.stringify(item)} is not a ${rule.name}`);
      from = readValue(text, low, rule);
      to =
        high === undefined
          ? stepText === undefined
            ? from
            : rule.max
          : readValue(text, high, rule);
      if (to < from) fail(text, `${JSON.stringify(item)} runs backwards`);
    }
    for (let value = from; value <= to; value += step) values.add(value);
  }
  return values;
};

export const parseCron = (expression: string): Cron => {
  const text = expression.trim().replace(/\s+/g, ' ');
  const fields = text.split(' ');
  if (fields.length !== 5)
    fail(
      text,
      `a cron expression has 5 fields (minute hour day month weekday), not ${fields.length}`,
    );
  const [minutes, hours, days, months, weekdays] = fields.map((field, index) =>
    readField(text, field, FIELDS[index]!),
  ) as [Set<number>, Set<number>, Set<number>, Set<number>, Set<number>];
  if (weekdays.delete(7)) weekdays.add(0);
  return harden({
    text,
    minutes,
    hours,
    days,
    months,
    weekdays,
    daysRestricted: fields[2] !== '*',
    weekdaysRestricted: fields[4] !== '*',
  });
};
harden(parseCron);

const dayMatches = (cron: Cron, fields: ZonedFields): boolean => {
  const byDay = cron.days.has(fields.day);
  const byWeekday = cron.weekdays.has(fields.weekday);
  if (cron.daysRestricted && cron.weekdaysRestricted) return byDay || byWeekday;
  return byDay && byWeekday;
};

const MINUTE = 60_000;
/** Enough steps for any expression that fires within about five years. */
const MAX_STEPS = 20_000;

/** The first time after `after` (ms) the expression fires, or undefined when it never does. */
export const nextCronTime = (cron: Cron, after: number, timeZone: string): number | undefined => {
  let time = Math.floor(after / MINUTE) * MINUTE + MINUTE;
  for (let step = 0; step < MAX_STEPS; step += 1) {
    const fields = zonedFields(time, timeZone);
    if (!cron.months.has(fields.month) || !dayMatches(cron, fields)) {
      // To the start of the next day: recomputed there, so a daylight-saving day lands right.
      time += ((23 - fields.hour) * 60 + (60 - fields.minute)) * MINUTE;
    } else if (!cron.hours.has(fields.hour)) {
      time += (60 - fields.minute) * MINUTE;
    } else if (!cron.minutes.has(fields.minute)) {
      time += MINUTE;
    } else {
      return time;
    }
  }
  return undefined;
};
harden(nextCronTime);
