/**
 * Recurring wake-ups, triggers and the heartbeat as a module, under a
 * manual clock: each run once, an end by count or time, runs missed while
 * the agent was down told as one (or skipped), the HOST's pause, resume and
 * revoke, a heartbeat that is not armed while nothing is due, triggers at
 * most once per minimum period, and a peer that may cancel only its own.
 */
import { describe, expect, test } from 'vitest';
import {
  makeWakeUps,
  wakeUpNotice,
  heartbeatNotice,
  type ScheduleArgs,
} from '../src/schedule/wake-ups.js';
import { isWakeUp, type WakeUp } from '../src/schedule/wake-up-record.js';
import { HEARTBEAT_ID } from '../src/schedule/wake-up-timers.js';
import { makeManualClock } from './support/manual-clock.js';

const start = Date.UTC(2026, 10, 23, 9, 0, 0);
const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;

const setUp = (stored: WakeUp[] = [], settings = {}) => {
  const clock = makeManualClock(start);
  const due: string[] = [];
  const watched: string[][] = [];
  const wakeUps = makeWakeUps({
    stored,
    clock,
    max: 5,
    onDue: id => due.push(id),
    settings: { timeZone: 'UTC', minPeriodMs: MIN, heartbeatMs: 30 * MIN, ...settings },
    onWatchedChange: () => watched.push(wakeUps.watched()),
  });
  const args = (extra: Partial<ScheduleArgs>): ScheduleArgs => ({
    note: 'water the plants',
    delaySeconds: undefined,
    at: undefined,
    cancel: undefined,
    ...extra,
  });
  return { clock, stored, due, wakeUps, args, watched };
};

describe('recurring wake-ups', () => {
  test('every 2h runs each time, start to start, and says so', () => {
    const { clock, due, wakeUps, args, stored } = setUp();
    expect(wakeUps.schedule(args({ every: 'every 2h' }), { number: 4n, sender: 'HOST' })).toEqual({
      scheduled: 'w1',
      every: '2h',
      first: new Date(start + 2 * HOUR).toISOString(),
      note: 'water the plants',
      tellsWhenDue: 'HOST',
    });
    clock.advance(2 * HOUR - 1);
    expect(due).toEqual([]);
    clock.advance(1);
    expect(due).toEqual(['w1']);
    const run = wakeUps.takeRun('w1')!;
    expect(run).toMatchObject({ missed: 1, last: false, events: 0 });
    expect(stored[0]).toMatchObject({ id: 'w1', at: start + 4 * HOUR, runs: 1 });
    clock.advance(2 * HOUR);
    expect(due).toEqual(['w1', 'w1']);
    expect(wakeUps.describe()).toEqual([
      `w1 every 2h (next ${new Date(start + 4 * HOUR).toISOString()}, 1 run(s)) for HOST: "water the plants"`,
    ]);
    expect(wakeUpNotice(run.entry, run)).toContain('It recurs: every 2h.');
  });

  test('a first time may be given with at or delaySeconds', () => {
    const { wakeUps, args, stored } = setUp();
    wakeUps.schedule(args({ every: '1d', delaySeconds: 60 }), undefined);
    expect(stored[0]!.at).toBe(start + MIN);
  });

  test('a cron schedule runs at its times in the agent zone', () => {
    const { clock, due, wakeUps, args, stored } = setUp([], { timeZone: 'Europe/Paris' });
    wakeUps.schedule(args({ every: 'cron 30 10 * * *' }), undefined);
    // 10:30 in Paris in November is 09:30 UTC.
    expect(new Date(stored[0]!.at).toISOString()).toBe('2026-11-23T09:30:00.000Z');
    clock.advance(30 * MIN);
    expect(due).toEqual(['w1']);
    wakeUps.takeRun('w1');
    expect(new Date(stored[0]!.at).toISOString()).toBe('2026-11-24T09:30:00.000Z');
  });

  test('until a count: the last run says so and it is gone', () => {
    const { clock, wakeUps, args, stored } = setUp();
    wakeUps.schedule(args({ every: '1h, 2 times' }), undefined);
    clock.advance(HOUR);
    expect(wakeUps.takeRun('w1')).toMatchObject({ last: false });
    clock.advance(HOUR);
    const last = wakeUps.takeRun('w1')!;
    expect(last.last).toBe(true);
    expect(wakeUpNotice(last.entry, last)).toContain('this was its last run');
    expect(stored).toEqual([]);
  });

  test('until a time: no run after it', () => {
    const { clock, wakeUps, args, stored } = setUp();
    wakeUps.schedule(
      args({ every: '1h', until: new Date(start + 2.5 * HOUR).toISOString() }),
      undefined,
    );
    clock.advance(HOUR);
    expect(wakeUps.takeRun('w1')!.last).toBe(false);
    clock.advance(HOUR);
    expect(wakeUps.takeRun('w1')!.last).toBe(true);
    expect(stored).toEqual([]);
  });

  test('until without every, and bad periods, are refused before anything is stored', () => {
    const { wakeUps, args, stored } = setUp();
    expect(() => wakeUps.schedule(args({ delaySeconds: 5, until: '3' }), undefined)).toThrow(
      /until goes with every/,
    );
    expect(() => wakeUps.schedule(args({ every: '10s' }), undefined)).toThrow(
      /LAL_MIN_SCHEDULE_SECONDS/,
    );
    expect(() => wakeUps.schedule(args({ every: 'cron 0 0 30 2 *' }), undefined)).toThrow(
      /never comes/,
    );
    expect(stored).toEqual([]);
  });
});

describe('catching up after downtime', () => {
  const hourly = (extra: Partial<WakeUp> = {}): WakeUp => ({
    id: 'w1',
    at: start - DAY,
    note: 'look at the queue',
    setAt: start - 2 * DAY,
    every: '1h',
    runs: 3,
    ...extra,
  });

  test('a day of missed hourly runs is due at once, as one run that counts them', () => {
    const { clock, due, wakeUps, stored } = setUp([hourly()]);
    wakeUps.armAll();
    clock.advance(0);
    expect(due).toEqual(['w1']);
    const run = wakeUps.takeRun('w1')!;
    expect(run).toMatchObject({ missed: 25, since: start - DAY, last: false });
    expect(wakeUpNotice(run.entry, run)).toContain(
      `25 runs fell due since ${new Date(start - DAY).toISOString()} while I could not run: this one turn stands for them all.`,
    );
    // On to its rhythm: the next full hour, not 25 more turns.
    expect(stored[0]).toMatchObject({ at: start + HOUR, runs: 4 });
    clock.advance(HOUR - 1);
    expect(due).toEqual(['w1']);
  });

  test('with skip missed, nothing runs for the downtime and the next is on its rhythm', () => {
    const { clock, due, wakeUps, stored } = setUp([
      hourly({ skipMissed: true, at: start - DAY + 30 * MIN }),
    ]);
    wakeUps.armAll();
    clock.advance(0);
    expect(due).toEqual([]);
    expect(stored[0]!.at).toBe(start + 30 * MIN);
  });

  test('a one-shot that fell due while down runs once', () => {
    const { clock, due, wakeUps } = setUp([
      { id: 'w2', at: start - HOUR, note: 'x', setAt: start - DAY },
    ]);
    wakeUps.armAll();
    clock.advance(0);
    expect(due).toEqual(['w2']);
    expect(wakeUps.takeRun('w2')).toMatchObject({ missed: 1, last: true });
    expect(wakeUps.takeRun('w2')).toBeUndefined();
  });
});

describe('the HOST’s hand', () => {
  test('pause disarms, resume takes it up from now (what fell due while paused is not run), revoke ends it', () => {
    const { clock, due, wakeUps, args, stored } = setUp();
    wakeUps.schedule(args({ every: '1h' }), undefined);
    expect(wakeUps.pause('w1')).toBe('paused w1');
    expect(wakeUps.pause('w1')).toBe('w1 is paused already');
    expect(wakeUps.describe()[0]).toContain('(paused)');
    clock.advance(5 * HOUR);
    expect(due).toEqual([]);
    expect(wakeUps.takeRun('w1')).toBeUndefined();
    expect(wakeUps.resume('w1')).toBe(
      `resumed w1; next ${new Date(start + 6 * HOUR).toISOString()}`,
    );
    clock.advance(HOUR);
    expect(due).toEqual(['w1']);
    expect(wakeUps.revoke('w1')).toBe('revoked w1');
    expect(stored).toEqual([]);
    expect(() => wakeUps.revoke('w1')).toThrow('No pending wake-up "w1"; pending: none');
  });
});

describe('the heartbeat', () => {
  test('with an empty checklist nothing is armed all day', () => {
    const { clock, due } = setUp();
    clock.advance(DAY);
    expect(due).toEqual([]);
  });

  test('items are looked at together when due, each on its own period; nothing armed in between', () => {
    const { clock, due, wakeUps, args } = setUp();
    wakeUps.schedule(args({ every: 'heartbeat', note: 'is the build green?' }), undefined);
    wakeUps.schedule(args({ every: 'heartbeat 2h', note: 'any mail from the bank?' }), undefined);
    clock.advance(30 * MIN);
    expect(due).toEqual([HEARTBEAT_ID]);
    expect(wakeUps.takeChecks().map(item => item.id)).toEqual(['w1']);
    clock.advance(30 * MIN);
    expect(due).toEqual([HEARTBEAT_ID, HEARTBEAT_ID]);
    expect(wakeUps.takeChecks().map(item => item.id)).toEqual(['w1']);
    // Left untaken (the agent busy for an hour), the next look covers what fell due meanwhile.
    clock.advance(HOUR);
    expect(due).toEqual([HEARTBEAT_ID, HEARTBEAT_ID, HEARTBEAT_ID]);
    expect(wakeUps.takeChecks().map(item => item.id)).toEqual(['w1', 'w2']);
    expect(wakeUps.takeChecks()).toEqual([]);
    const text = heartbeatNotice(
      [{ id: 'w1', at: 0, setAt: 0, note: 'is the build green?' }],
      'HOST',
    );
    expect(text).toContain('otherwise end without a word: nothing is sent');
  });
});

describe('triggers', () => {
  test('mail from a sender fires at most once per minimum period; events meanwhile wait for the same turn', () => {
    const { clock, due, wakeUps, args } = setUp();
    expect(
      wakeUps.schedule(args({ every: 'mail from bob', note: 'tell me what bob wants' }), undefined),
    ).toMatchObject({
      every: 'mail from bob',
    });
    wakeUps.mailFrom('alice');
    clock.advance(0);
    expect(due).toEqual([]);
    wakeUps.mailFrom('bob');
    clock.advance(0);
    expect(due).toEqual(['w1']);
    expect(wakeUps.takeRun('w1')).toMatchObject({ events: 1, last: false });
    wakeUps.mailFrom('bob');
    wakeUps.mailFrom('bob');
    clock.advance(MIN - 1);
    expect(due).toEqual(['w1']);
    clock.advance(1);
    expect(due).toEqual(['w1', 'w1']);
    expect(wakeUps.takeRun('w1')).toMatchObject({ events: 2 });
    // Nothing new: a stray due finds nothing to run.
    expect(wakeUps.takeRun('w1')).toBeUndefined();
  });

  test('"change in" directories are watched while their wake-ups last', () => {
    const { clock, due, wakeUps, args, watched } = setUp();
    wakeUps.schedule(args({ every: 'change in inbox/' }), undefined);
    expect(watched).toEqual([['inbox']]);
    wakeUps.changed('inbox');
    clock.advance(0);
    expect(due).toEqual(['w1']);
    wakeUps.revoke('w1');
    expect(watched).toEqual([['inbox'], []]);
  });
});

describe('among others', () => {
  test('a peer may cancel only what was set for it; the HOST any', () => {
    const { wakeUps, args } = setUp();
    wakeUps.schedule(args({ delaySeconds: 60 }), { number: 1n, sender: 'HOST' });
    wakeUps.schedule(args({ delaySeconds: 60 }), { number: 2n, sender: 'bob' });
    expect(() => wakeUps.schedule(args({ cancel: 'w1' }), { number: 3n, sender: 'bob' })).toThrow(
      'w1 was set for HOST, not for bob: only its setter or the HOST can cancel it',
    );
    expect(wakeUps.schedule(args({ cancel: 'w2' }), { number: 3n, sender: 'bob' })).toMatchObject({
      cancelled: 'w2',
    });
    // A new id (w2 is never made again), which the HOST may cancel though bob set it.
    expect(
      wakeUps.schedule(args({ delaySeconds: 60 }), { number: 4n, sender: 'bob' }),
    ).toMatchObject({ scheduled: 'w3' });
    expect(wakeUps.schedule(args({ cancel: 'w3' }), { number: 5n, sender: 'HOST' })).toMatchObject({
      cancelled: 'w3',
    });
  });

  test('stored records of this release are recognised, damaged ones refused', () => {
    const good: WakeUp = {
      id: 'w1',
      at: 1,
      note: 'x',
      setAt: 0,
      every: '1h',
      runs: 2,
      runsLeft: 3,
      paused: true,
    };
    expect(isWakeUp(good)).toBe(true);
    expect(isWakeUp({ ...good, every: 5 })).toBe(false);
    expect(isWakeUp({ ...good, paused: 'yes' })).toBe(false);
    expect(isWakeUp({ ...good, runsLeft: '3' })).toBe(false);
  });
});
