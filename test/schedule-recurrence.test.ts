/**
 * What `schedule`'s `every` and `until` mean (docs/how-it-works.md, "A time
 * of its own"): durations as people write them, five-field cron in the
 * agent's time zone (across a daylight-saving change), triggers and the
 * heartbeat, a minimum period, and one-line errors with an example.
 */
import { describe, expect, test } from 'vitest';
import { formatDuration, parseDuration, readDuration } from '../src/settings/durations.js';
import { countCronRuns, nextCronTime, parseCron } from '../src/schedule/cron.js';
import { readEvery, readUntil, runsUntil, type Every } from '../src/schedule/recurrence.js';
import { readScheduleSettings } from '../src/settings/schedule-settings.js';

const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;
const iso = (time: number | undefined) =>
  time === undefined ? undefined : new Date(time).toISOString();

describe('durations', () => {
  test('are read as people write them, and written back short', () => {
    expect(readDuration('90s')).toBe(90_000);
    expect(readDuration('30m')).toBe(30 * MIN);
    expect(readDuration('2h')).toBe(2 * HOUR);
    expect(readDuration('1d')).toBe(DAY);
    expect(readDuration('1h30m')).toBe(90 * MIN);
    expect(readDuration('2 hours')).toBe(2 * HOUR);
    expect(readDuration(' 1.5h ')).toBe(90 * MIN);
    expect(formatDuration(90 * MIN)).toBe('1h30m');
    expect(formatDuration(DAY + 90_000)).toBe('1d1m30s');
  });

  test('anything else is refused with an example', () => {
    for (const bad of ['', 'soon', '30', 'h', '-5m', '5 fortnights', '0m'])
      expect(readDuration(bad), bad).toBeUndefined();
    expect(() => parseDuration('soon')).toThrow(
      'every: "soon" is not a duration; write it as people do, e.g. "90s", "30m", "2h" or "1d"',
    );
  });
});

describe('cron', () => {
  test('fields: lists, ranges, steps, names, Sunday as 0 or 7', () => {
    /** The runs within a day (UTC) from `start`, as HH:MM. */
    const runsOfDay = (expression: string, start: number) => {
      const cron = parseCron(expression);
      const runs: string[] = [];
      for (let at = nextCronTime(cron, start - 1, 'UTC'); at !== undefined && at < start + DAY;) {
        // A day has at most 1,440 runs: more means the next run did not move on (a failure, not a hang).
        if (runs.length === 1_440)
          throw new Error(`${expression}: the next run stays at ${iso(at)}`);
        runs.push(new Date(at).toISOString().slice(11, 16));
        at = nextCronTime(cron, at, 'UTC');
      }
      return runs;
    };
    // Friday 2026-07-03: a weekday of July.
    const friday = Date.UTC(2026, 6, 3);
    expect(runsOfDay('*/15 9-10 * jan,JUL mon-fri', friday)).toEqual([
      '09:00',
      '09:15',
      '09:30',
      '09:45',
      '10:00',
      '10:15',
      '10:30',
      '10:45',
    ]);
    // Not in June, and not on a Saturday.
    expect(runsOfDay('*/15 9-10 * jan,JUL mon-fri', Date.UTC(2026, 5, 5))).toEqual([]);
    expect(runsOfDay('*/15 9-10 * jan,JUL mon-fri', Date.UTC(2026, 6, 4))).toEqual([]);
    // Sunday 2026-07-05: 0 and 7 both name it; 5-6/1 runs Friday and Saturday, not Thursday.
    const sunday = Date.UTC(2026, 6, 5);
    expect(runsOfDay('0 0 * * 7', sunday)).toEqual(['00:00']);
    expect(runsOfDay('0 0 * * 0', sunday)).toEqual(['00:00']);
    expect(runsOfDay('0 0 * * 5-6/1', Date.UTC(2026, 6, 4))).toEqual(['00:00']);
    expect(runsOfDay('0 0 * * 5-6/1', Date.UTC(2026, 6, 2))).toEqual([]);
    // A step from a single number is ambiguous: refused, saying how to write it.
    expect(() => parseCron('0 0 * * 5/1')).toThrow(/Use wildcard \(\*\/step\) or range/);
  });

  test('the next run, in UTC and in a zone across a daylight-saving change', () => {
    const weekdays9 = parseCron('0 9 * * 1-5');
    // Friday 2026-11-27 10:00 UTC: the next is Monday 09:00.
    expect(iso(nextCronTime(weekdays9, Date.UTC(2026, 10, 27, 10, 0), 'UTC'))).toBe(
      '2026-11-30T09:00:00.000Z',
    );
    // 09:00 in Paris is 07:00 UTC in summer and 08:00 UTC in winter (the change: 2026-10-25).
    const daily9 = parseCron('0 9 * * *');
    expect(iso(nextCronTime(daily9, Date.UTC(2026, 9, 24, 12), 'Europe/Paris'))).toBe(
      '2026-10-25T08:00:00.000Z',
    );
    expect(iso(nextCronTime(daily9, Date.UTC(2026, 9, 23, 12), 'Europe/Paris'))).toBe(
      '2026-10-24T07:00:00.000Z',
    );
    // Strictly after: at 09:00 itself the next is tomorrow's.
    expect(iso(nextCronTime(daily9, Date.UTC(2026, 10, 27, 9, 0), 'UTC'))).toBe(
      '2026-11-28T09:00:00.000Z',
    );
  });

  test('both day fields restricted: either may match', () => {
    // The 1st of the month or a Friday.
    const cron = parseCron('0 12 1 * 5');
    expect(iso(nextCronTime(cron, Date.UTC(2026, 10, 27, 13), 'UTC'))).toBe(
      '2026-12-01T12:00:00.000Z',
    );
    expect(iso(nextCronTime(cron, Date.UTC(2026, 10, 25, 13), 'UTC'))).toBe(
      '2026-11-27T12:00:00.000Z',
    );
  });

  test('a date that never comes has no next run', () => {
    expect(nextCronTime(parseCron('0 0 30 2 *'), Date.UTC(2026, 0, 1), 'UTC')).toBeUndefined();
  });

  test('a wrong expression says what is wrong, with an example', () => {
    expect(() => parseCron('0 9 * *')).toThrow(
      'cron "0 9 * *": a cron expression has 5 fields (minute hour day month weekday), not 4; e.g. "0 9 * * 1-5" (09:00 on weekdays) or "*/30 * * * *" (every half hour)',
    );
    // Each says which expression, then the library's reason, then the example.
    for (const wrong of [
      '61 * * * *',
      '0 9 * * funday',
      '0 17-9 * * *',
      '*/0 * * * *',
      '0 9 * 13 *',
    ])
      expect(() => parseCron(wrong)).toThrow(
        new RegExp(
          `^cron ${JSON.stringify(wrong).replace(/[*]/g, '\\*')}: .+; e\\.g\\. "0 9 \\* \\* 1-5"`,
        ),
      );
  });
});

describe('every', () => {
  test('periods, cron, the heartbeat and triggers, normalised for the store', () => {
    expect(readEvery('every 90 minutes', MIN)).toMatchObject({
      text: '1h30m',
      every: { kind: 'period', ms: 90 * MIN },
    });
    expect(readEvery('cron 0 9 * * 1-5', MIN)).toMatchObject({
      text: 'cron 0 9 * * 1-5',
      every: { kind: 'cron' },
    });
    expect(readEvery('0  9 * * 1-5', MIN).text).toBe('cron 0 9 * * 1-5');
    expect(readEvery('heartbeat', MIN)).toMatchObject({
      text: 'heartbeat',
      every: { kind: 'heartbeat', ms: undefined },
    });
    expect(readEvery('heartbeat 2h', MIN).text).toBe('heartbeat 2h');
    expect(readEvery('mail from bob', MIN)).toMatchObject({
      every: { kind: 'mail', sender: 'bob' },
    });
    expect(readEvery('change in inbox/', MIN)).toMatchObject({
      text: 'change in inbox',
      every: { kind: 'change', path: 'inbox' },
    });
    expect(readEvery('1h, skip missed', MIN)).toMatchObject({ text: '1h', skipMissed: true });
    expect(readEvery('1h', MIN).skipMissed).toBe(false);
    // An end written after it: a count or a time.
    expect(readEvery('every 1h, 5 times', MIN)).toMatchObject({ text: '1h', until: '5 times' });
    expect(readEvery('cron 0 9 * * 1-5 until 2026-12-31T18:00:00Z', MIN)).toMatchObject({
      text: 'cron 0 9 * * 1-5',
      until: '2026-12-31T18:00:00Z',
    });
    expect(readEvery('2h, 3 times, skip missed', MIN)).toMatchObject({
      text: '2h',
      until: '3 times',
      skipMissed: true,
    });
    expect(readEvery('1h', MIN).until).toBeUndefined();
  });

  test('more often than the minimum period is refused, naming the setting', () => {
    expect(() => readEvery('30s', MIN)).toThrow(
      'every: "30s" is more often than the 1m allowed (LAL_MIN_SCHEDULE_SECONDS); e.g. "30m"',
    );
    expect(() => readEvery('heartbeat 10s', MIN)).toThrow(/LAL_MIN_SCHEDULE_SECONDS/);
    expect(readEvery('30s', 1_000).text).toBe('30s');
  });

  test('what is neither gets the examples', () => {
    expect(() => readEvery('whenever', MIN)).toThrow(
      'every: "whenever" is not a period or trigger; e.g. "30m", "2h", "1d", "cron 0 9 * * 1-5", "heartbeat", "mail from bob" or "change in inbox"',
    );
    expect(() => readEvery('mail from bob and alice', MIN)).toThrow(/wants one pet name/);
  });

  test('runs missed are counted, and the next keeps its rhythm', () => {
    const hourly = readEvery('1h', MIN).every as { kind: 'period'; ms: number };
    const due = Date.UTC(2026, 10, 23, 10);
    expect(runsUntil(hourly, due, due - 1, 'UTC')).toEqual({ count: 0, next: due });
    expect(runsUntil(hourly, due, due, 'UTC')).toEqual({ count: 1, next: due + HOUR });
    // A day down: 24 runs since 10:00, the next at 10:00 the day after.
    expect(runsUntil(hourly, due, due + DAY - 1, 'UTC')).toEqual({ count: 24, next: due + DAY });
    const cron = readEvery('cron 0 9 * * *', MIN).every as {
      kind: 'cron';
      cron: ReturnType<typeof parseCron>;
    };
    const nine = Date.UTC(2026, 10, 23, 9);
    expect(runsUntil(cron, nine, nine + 3 * DAY + HOUR, 'UTC')).toEqual({
      count: 4,
      next: nine + 4 * DAY,
    });
  });
});

describe('until', () => {
  test('a count or a time to come', () => {
    const now = Date.UTC(2026, 10, 23, 9);
    expect(readUntil('5 times', now)).toEqual({ runsLeft: 5 });
    expect(readUntil('3', now)).toEqual({ runsLeft: 3 });
    expect(readUntil('2026-12-01T00:00:00Z', now)).toEqual({ endsAt: Date.UTC(2026, 11, 1) });
    expect(() => readUntil('0 times', now)).toThrow(/at least 1/);
    expect(() => readUntil('2020-01-01T00:00:00Z', now)).toThrow(/has passed already/);
    expect(() => readUntil('christmas', now)).toThrow(
      'until: "christmas" is neither a time nor a count; e.g. "2026-12-31T18:00:00Z" or "5 times"',
    );
  });
});

describe('the edges of what is read', () => {
  test('durations: nothing but parts, each part a number and a unit; none at all is 0s', () => {
    for (const bad of ['x1h', '1h x', '1h!', '1.h', '1h 30'])
      expect(readDuration(bad), bad).toBeUndefined();
    expect(readDuration('1h 30m')).toBe(90 * MIN);
    expect(readDuration('12 mins')).toBe(12 * MIN);
    expect(readDuration('1.25h')).toBe(75 * MIN);
    // A unit is its whole word: "months" is none, though it starts as minutes do.
    expect(readDuration('5 months')).toBeUndefined();
    expect(formatDuration(0)).toBe('0s');
  });

  test('cron: spaces around and between the fields are one; croner says what is wrong', () => {
    expect(parseCron('  0  9 * * 1-5 ').text).toBe('0 9 * * 1-5');
    expect(() => parseCron('61 * * * *')).toThrow(
      'cron "61 * * * *": Invalid value for minute: 61; e.g. "0 9 * * 1-5" (09:00 on weekdays) or "*/30 * * * *" (every half hour)',
    );
  });

  test('cron runs are counted up to and with the last moment, at most as many as asked', () => {
    const hourly = parseCron('0 * * * *');
    const nine = Date.UTC(2026, 10, 23, 9);
    expect(countCronRuns(hourly, nine, nine + 3 * HOUR, 'UTC', 10)).toBe(3);
    expect(countCronRuns(hourly, nine, nine + 3 * HOUR - 1, 'UTC', 10)).toBe(2);
    expect(countCronRuns(hourly, nine, nine + 3 * HOUR, 'UTC', 2)).toBe(2);
  });

  test('every: its word, its spaces and its end are read wherever a person puts them', () => {
    expect(readEvery(' every 30m ', MIN).text).toBe('30m');
    expect(readEvery('every  cron 0 9 * * *', MIN).text).toBe('cron 0 9 * * *');
    expect(readEvery('30 9 * * 1-5', MIN).text).toBe('cron 30 9 * * 1-5');
    expect(readEvery('change in every report', MIN).every).toEqual({
      kind: 'change',
      path: 'every report',
    });
    expect(readEvery('mail from  bob', MIN).every).toEqual({ kind: 'mail', sender: 'bob' });
    expect(readEvery('change in  docs/reports//', MIN).every).toEqual({
      kind: 'change',
      path: 'docs/reports',
    });
    expect(readEvery('30m skip missed', MIN).skipMissed).toBe(true);
    expect(readEvery('30m,skip missed', MIN).skipMissed).toBe(true);
    expect(readEvery('1h until  2026-12-31T18:00:00Z', MIN).until).toBe('2026-12-31T18:00:00Z');
    for (const end of ['12 times', '5times', '1 time', '1 run'])
      expect(readEvery(`1h, ${end}`, MIN).until, end).toBe(end);
  });

  test('every: exactly the minimum period is allowed; a heartbeat period is named as written', () => {
    expect(readEvery('1m', MIN).text).toBe('1m');
    expect(() => readEvery('heartbeat 10s', MIN)).toThrow(
      'every: "10s" is more often than the 1m allowed (LAL_MIN_SCHEDULE_SECONDS); e.g. "30m"',
    );
    expect(() => readEvery('heartbeat soon', MIN)).toThrow(/^every: "soon" is not a duration/);
  });

  test('every: five fields only when they are all there is; a folder that is only slashes is none', () => {
    const notEither = /is not a period or trigger/;
    expect(() => readEvery('at 0 9 * * 1', MIN)).toThrow(notEither);
    expect(() => readEvery('0 9 * * 1 2', MIN)).toThrow(notEither);
    expect(() => readEvery('1h, 5 times over', MIN)).toThrow(notEither);
    expect(() => readEvery('change in /', MIN)).toThrow(
      'every: "change in" wants a directory you hold, e.g. "change in inbox"',
    );
    expect(() => readEvery('mail from bob skip missed x', MIN)).toThrow(
      'every: "mail from" wants one pet name, e.g. "mail from bob"; got "bob skip missed x"',
    );
  });

  test('until: spaces, one-digit and many-digit counts, and a time that is now has passed', () => {
    const now = Date.UTC(2026, 10, 23, 9);
    expect(readUntil(' 5 times ', now)).toEqual({ runsLeft: 5 });
    expect(readUntil('12 times', now)).toEqual({ runsLeft: 12 });
    expect(readUntil('5times', now)).toEqual({ runsLeft: 5 });
    expect(readUntil('1 time', now)).toEqual({ runsLeft: 1 });
    expect(readUntil('1 run', now)).toEqual({ runsLeft: 1 });
    expect(readUntil('1', now)).toEqual({ runsLeft: 1 });
    expect(() => readUntil('x5', now)).toThrow(/neither a time nor a count/);
    expect(() => readUntil(new Date(now).toISOString(), now)).toThrow(/has passed already/);
  });

  test('runs of a cron not yet due: none, and the next is when it is due', () => {
    const cron = readEvery('cron 0 9 * * *', MIN).every as Extract<Every, { kind: 'cron' }>;
    const nine = Date.UTC(2026, 10, 23, 9);
    expect(runsUntil(cron, nine, nine - HOUR, 'UTC')).toEqual({ count: 0, next: nine });
  });

  test('a cron down for more than 10,000 of its runs counts 10,000, and the next is after now', () => {
    const minutely = readEvery('cron * * * * *', MIN).every as Extract<Every, { kind: 'cron' }>;
    const due = Date.UTC(2026, 10, 23, 9);
    const now = due + 7 * DAY;
    expect(runsUntil(minutely, due, now, 'UTC')).toEqual({ count: 10_000, next: now + MIN });
  });
});

describe('settings', () => {
  test('defaults, and bad values told as problems with the default kept', () => {
    const problems: string[] = [];
    expect(readScheduleSettings({}, problems)).toEqual({
      timeZone: 'UTC',
      minPeriodMs: MIN,
      heartbeatMs: 30 * MIN,
    });
    expect(
      readScheduleSettings(
        { LAL_TIME_ZONE: 'Europe/Paris', LAL_MIN_SCHEDULE_SECONDS: '5', LAL_HEARTBEAT: '2h' },
        problems,
      ),
    ).toEqual({ timeZone: 'Europe/Paris', minPeriodMs: 5_000, heartbeatMs: 2 * HOUR });
    expect(problems).toEqual([]);
    expect(
      readScheduleSettings({ LAL_TIME_ZONE: 'Mars/Olympus', LAL_HEARTBEAT: '10s' }, problems),
    ).toEqual({ timeZone: 'UTC', minPeriodMs: MIN, heartbeatMs: 30 * MIN });
    expect(problems).toEqual([
      'LAL_TIME_ZONE must be a time zone such as "Europe/Paris" or "UTC", got "Mars/Olympus"; using UTC.',
      'LAL_HEARTBEAT must be a period such as "30m" or "2h", at least LAL_MIN_SCHEDULE_SECONDS, got "10s"; using 30m.',
    ]);
  });
});
