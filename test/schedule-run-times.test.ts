/**
 * When a schedule runs (src/schedule/run-times.ts) and what its stored record says
 * (src/schedule/wake-up-record.ts), docs/how-it-works.md "A time of its own": the first run
 * from a time, a delay or its `every`, within a year; the next after each run, and when it
 * ends; where a paused one takes up again; which stored records read; its line in help().
 */
import { describe, expect, test } from 'vitest';
import { advanceRun, firstRun, resumedAt } from '../src/schedule/run-times.js';
import { readEvery, type Every } from '../src/schedule/recurrence.js';
import {
  describeWakeUp,
  isTrigger,
  isWakeUp,
  type WakeUp,
} from '../src/schedule/wake-up-record.js';

const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;
const now = Date.UTC(2026, 10, 23, 9);
const settings = { timeZone: 'UTC', heartbeatMs: 30 * MIN, minPeriodMs: MIN };
const none = { delaySeconds: undefined, at: undefined };
const every = (text: string): Every => readEvery(text, 0).every;
const entry = (extra: Partial<WakeUp>): WakeUp => ({
  id: 'w1',
  at: now,
  note: 'look',
  setAt: now - DAY,
  ...extra,
});

describe('the first run', () => {
  test('a time that is now has passed; one exactly a year of 366 days away is the furthest', () => {
    expect(() =>
      firstRun({ ...none, at: new Date(now).toISOString() }, now, undefined, settings),
    ).toThrow(/has passed already/);
    const year = 366 * DAY;
    expect(firstRun({ ...none, delaySeconds: year / 1000 }, now, undefined, settings)).toBe(
      now + year,
    );
    expect(() =>
      firstRun({ ...none, delaySeconds: year / 1000 + 1 }, now, undefined, settings),
    ).toThrow('A wake-up may be at most a year away');
  });

  test('the heartbeat: its own period, else the setting; a trigger: at once', () => {
    expect(firstRun(none, now, every('heartbeat'), settings)).toBe(now + 30 * MIN);
    expect(firstRun(none, now, every('heartbeat 2h'), settings)).toBe(now + 2 * HOUR);
    expect(firstRun(none, now, every('mail from bob'), settings)).toBe(now);
  });
});

describe('after a run', () => {
  test('a heartbeat item is next a whole period on; a trigger after the minimum period', () => {
    const check = entry({ every: 'heartbeat 2h' });
    expect(advanceRun(check, every('heartbeat 2h'), now + 5 * MIN, settings)).toEqual({
      missed: 1,
      goesOn: true,
    });
    expect(check.at).toBe(now + 5 * MIN + 2 * HOUR);
    const trigger = entry({ every: 'mail from bob' });
    advanceRun(trigger, every('mail from bob'), now, settings);
    expect(trigger.at).toBe(now + MIN);
  });

  test('a cron that never comes again ends, its run counted', () => {
    const stored = entry({ every: 'cron 0 0 30 2 *', at: now - MIN });
    expect(advanceRun(stored, every('cron 0 0 30 2 *'), now, settings)).toEqual({
      missed: 1,
      goesOn: false,
    });
  });

  test('a run that falls exactly at its end still comes', () => {
    const hourly = entry({ every: '1h', at: now, endsAt: now + HOUR });
    expect(advanceRun(hourly, every('1h'), now, settings)).toEqual({ missed: 1, goesOn: true });
    expect(hourly.at).toBe(now + HOUR);
  });
});

describe('taken up again after a pause', () => {
  test('not yet due, or a one-shot: when it was due', () => {
    expect(resumedAt(entry({ at: now + HOUR, every: '1h' }), every('1h'), now, settings)).toBe(
      now + HOUR,
    );
    expect(resumedAt(entry({ at: now - HOUR }), undefined, now, settings)).toBe(now - HOUR);
    expect(
      resumedAt(entry({ at: now + MIN, every: 'heartbeat' }), every('heartbeat'), now, settings),
    ).toBe(now + MIN);
  });

  test('due now or before: the next run after now, a heartbeat item a period on, a trigger as it was', () => {
    /** Where an entry of this `every`, due at `at`, takes up again now. */
    const resumed = (at: number, text: string) =>
      resumedAt(entry({ at, every: text }), every(text), now, settings);
    expect(resumed(now, '1h')).toBe(now + HOUR);
    expect(resumed(now - HOUR, 'heartbeat')).toBe(now + 30 * MIN);
    expect(resumed(now - HOUR, 'heartbeat 2h')).toBe(now + 2 * HOUR);
    expect(resumed(now - HOUR, 'mail from bob')).toBe(now - HOUR);
  });
});

describe('the stored record', () => {
  test('what is not one: no object, an id or a time of the wrong type, an origin number not all digits', () => {
    expect(isWakeUp(entry({}))).toBe(true);
    for (const wrong of [
      undefined,
      { ...entry({}), id: 5 },
      { ...entry({}), setAt: '1' },
      { ...entry({}), origin: { number: 12, sender: 'bob' } },
      { ...entry({}), origin: { number: '12x', sender: 'bob' } },
    ])
      expect(isWakeUp(wrong), JSON.stringify(wrong)).toBe(false);
  });

  test('a change in a directory is a trigger, as mail is; a period is not', () => {
    expect(isTrigger(entry({ every: 'change in inbox' }))).toBe(true);
    expect(isTrigger(entry({ every: 'mail from bob' }))).toBe(true);
    expect(isTrigger(entry({ every: '1h' }))).toBe(false);
  });

  test('its line: a note of 120 characters whole, a longer one cut; runs, what is left, its end, skipping', () => {
    const exact = 'n'.repeat(120);
    expect(describeWakeUp(entry({ note: exact }))).toBe(
      `w1 at ${new Date(now).toISOString()} for HOST: "${exact}"`,
    );
    expect(describeWakeUp(entry({ note: `${exact}x` }))).toBe(
      `w1 at ${new Date(now).toISOString()} for HOST: "${exact}…"`,
    );
    expect(
      describeWakeUp(
        entry({
          every: '1h',
          runs: 2,
          runsLeft: 3,
          endsAt: now + DAY,
          skipMissed: true,
          origin: { number: '4', sender: 'bob' },
        }),
      ),
    ).toBe(
      `w1 every 1h (next ${new Date(now).toISOString()}, 2 run(s), 3 left, until ${new Date(now + DAY).toISOString()}, missed runs skipped) for bob: "look"`,
    );
    expect(describeWakeUp(entry({ every: 'mail from bob', runs: 4 }))).toBe(
      'w1 every mail from bob (4 run(s)) for HOST: "look"',
    );
    expect(describeWakeUp(entry({ every: 'mail from bob' }))).toBe(
      'w1 every mail from bob (0 run(s)) for HOST: "look"',
    );
    expect(describeWakeUp(entry({ every: '1h' }))).toBe(
      `w1 every 1h (next ${new Date(now).toISOString()}, 0 run(s)) for HOST: "look"`,
    );
  });
});
