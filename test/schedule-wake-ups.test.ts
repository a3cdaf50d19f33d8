/**
 * The `schedule` tool's wake-ups as a module: malformed arguments are
 * refused with an error the model can act on, the bounds hold, a cancel
 * disarms, ids are not reused, and what is stored from an older or damaged
 * store is recognised or refused. The agent-level behaviour (a due wake-up
 * starts a turn) is in agent-operator-controls.test.ts.
 */
import { describe, expect, test } from 'vitest';
import { makeWakeUps, readScheduleArgs, wakeUpNotice } from '../src/schedule/wake-ups.js';
import { isWakeUp, originOf, type WakeUp } from '../src/schedule/wake-up-record.js';
import { makeManualClock } from './support/manual-clock.js';
import { validatedCall } from '../src/agent-tools/validate-arguments.js';
import type { Args } from '../src/agent-tools/read-args.js';

const start = Date.UTC(2026, 10, 23, 9, 0, 0);

const setUp = (max = 3) => {
  const clock = makeManualClock(start);
  const stored: WakeUp[] = [];
  const due: string[] = [];
  const wakeUps = makeWakeUps({ stored, clock, max, onDue: id => due.push(id) });
  const args = (
    extra: Partial<{ note: string; delaySeconds: number; at: string; cancel: string }>,
  ) => ({
    note: 'check the oven',
    delaySeconds: undefined,
    at: undefined,
    cancel: undefined,
    ...extra,
  });
  return { clock, stored, due, wakeUps, args };
};

/** The schedule tool's arguments as the dispatch reads them: validated by its record, then read. */
const scheduleArgs = (raw: Args) => {
  const call = validatedCall('schedule', undefined, raw);
  if (call.op !== 'schedule') throw new Error(`not the schedule op: ${call.op}`);
  return readScheduleArgs(call.values);
};

describe('readScheduleArgs', () => {
  test('a delay given as text is read as a number; empty strings count as absent', () => {
    expect(scheduleArgs({ note: 'tea', delaySeconds: '90', at: '', every: '' })).toStrictEqual({
      note: 'tea',
      delaySeconds: 90,
      at: undefined,
      cancel: undefined,
    });
    expect(scheduleArgs({ note: 'tea', every: '1h' })).toMatchObject({ every: '1h' });
  });

  test('malformed arguments are refused with a reason', () => {
    expect(() => scheduleArgs({ note: 'tea', delaySeconds: 'soon' })).toThrow(
      /delaySeconds must be a number/,
    );
    expect(() => scheduleArgs({ note: 'tea', delaySeconds: true })).toThrow(
      /delaySeconds must be a number/,
    );
    expect(() => scheduleArgs({ note: ['tea'], delaySeconds: 5 })).toThrow(/note must be a string/);
    expect(() => scheduleArgs({ delaySeconds: 5 })).toThrow(/note is required/);
    expect(() => scheduleArgs({ note: '', delaySeconds: 5 })).toThrow(/note is required/);
  });

  test('a cancel needs no note', () => {
    expect(scheduleArgs({ cancel: 'w1' })).toStrictEqual({
      note: '',
      delaySeconds: undefined,
      at: undefined,
      cancel: 'w1',
    });
  });
});

describe('schedule', () => {
  test('a delay sets a wake-up that fires when the clock passes it, and tells whom it will answer', () => {
    const { clock, due, wakeUps, args, stored } = setUp();
    const result = wakeUps.schedule(args({ delaySeconds: 60 }), { number: 7n, sender: 'alice' });
    expect(result).toEqual({
      scheduled: 'w1',
      at: new Date(start + 60_000).toISOString(),
      note: 'check the oven',
      tellsWhenDue: 'alice',
    });
    expect(stored[0]!.origin).toEqual({ number: '7', sender: 'alice' });
    clock.advance(59_999);
    expect(due).toEqual([]);
    clock.advance(1);
    expect(due).toEqual(['w1']);
    expect(wakeUps.take('w1')?.note).toBe('check the oven');
    expect(stored).toEqual([]);
  });

  test('an ISO time sets a wake-up; without an origin it answers HOST', () => {
    const { wakeUps, args } = setUp();
    const at = new Date(start + 3_600_000).toISOString();
    expect(wakeUps.schedule(args({ at }), undefined)).toMatchObject({
      scheduled: 'w1',
      at,
      tellsWhenDue: 'HOST',
    });
    expect(wakeUps.describe()).toEqual([`w1 at ${at} for HOST: "check the oven"`]);
  });

  test('wrong times are refused with what was wrong', () => {
    const { wakeUps, args, stored } = setUp();
    expect(() => wakeUps.schedule(args({}), undefined)).toThrow(/either delaySeconds .* or at/);
    expect(() =>
      wakeUps.schedule(args({ delaySeconds: 5, at: '2027-01-01T00:00:00Z' }), undefined),
    ).toThrow(/not both/);
    expect(() => wakeUps.schedule(args({ delaySeconds: 0 }), undefined)).toThrow(/positive number/);
    expect(() =>
      wakeUps.schedule(args({ delaySeconds: Number.POSITIVE_INFINITY }), undefined),
    ).toThrow(/positive number/);
    expect(() => wakeUps.schedule(args({ at: 'next tuesday' }), undefined)).toThrow(
      /ISO 8601.*"next tuesday"/,
    );
    expect(() => wakeUps.schedule(args({ at: '2026-11-23T08:00:00Z' }), undefined)).toThrow(
      `2026-11-23T08:00:00Z has passed already; it is now ${new Date(start).toISOString()}`,
    );
    expect(() => wakeUps.schedule(args({ delaySeconds: 367 * 24 * 3600 }), undefined)).toThrow(
      /at most a year away/,
    );
    expect(stored).toEqual([]);
  });

  test('the note must say something and stay short', () => {
    const { wakeUps, args } = setUp();
    expect(() => wakeUps.schedule(args({ delaySeconds: 5, note: '   ' }), undefined)).toThrow(
      /note must say what to do/,
    );
    expect(() =>
      wakeUps.schedule(args({ delaySeconds: 5, note: 'x'.repeat(2_001) }), undefined),
    ).toThrow(/at most 2000 characters/);
  });

  test('no more than the bound may be pending, and the error says how to make room', () => {
    const { wakeUps, args } = setUp(2);
    wakeUps.schedule(args({ delaySeconds: 10 }), undefined);
    wakeUps.schedule(args({ delaySeconds: 20 }), undefined);
    expect(() => wakeUps.schedule(args({ delaySeconds: 30 }), undefined)).toThrow(
      /2 wake-ups are pending already.*LAL_MAX_WAKE_UPS.*cancel/,
    );
  });

  test('a cancelled wake-up never fires, and cancelling an unknown one lists the pending ids', () => {
    const { clock, due, wakeUps, args } = setUp();
    wakeUps.schedule(args({ delaySeconds: 10 }), undefined);
    wakeUps.schedule(args({ delaySeconds: 20, note: 'second' }), undefined);
    expect(wakeUps.schedule(args({ cancel: 'w1' }), undefined)).toEqual({
      cancelled: 'w1',
      note: 'check the oven',
    });
    expect(() => wakeUps.schedule(args({ cancel: 'w9' }), undefined)).toThrow(
      'No pending wake-up "w9"; pending: w2',
    );
    clock.advance(30_000);
    expect(due).toEqual(['w2']);
    wakeUps.take('w2');
    expect(() => wakeUps.schedule(args({ cancel: 'w2' }), undefined)).toThrow(/pending: none/);
  });

  test('a new id never repeats one still pending', () => {
    const { wakeUps, args } = setUp();
    wakeUps.schedule(args({ delaySeconds: 10 }), undefined);
    wakeUps.schedule(args({ delaySeconds: 20 }), undefined);
    wakeUps.take('w1');
    // One left (w2): the next is not w2 again.
    expect(wakeUps.schedule(args({ delaySeconds: 30 }), undefined)).toMatchObject({
      scheduled: 'w3',
    });
  });

  // Issue 45 (trial 15): a second w1 was made once the first was done. An id names one wake-up
  // for the life of the state folder (docs/behaviour.md 7.8): the count made is kept with the memory.
  test('an id is never made again, not even once the wake-up it named is done', () => {
    const { wakeUps, args } = setUp();
    wakeUps.schedule(args({ delaySeconds: 10 }), undefined);
    wakeUps.take('w1');
    expect(wakeUps.schedule(args({ delaySeconds: 20 }), undefined)).toMatchObject({
      scheduled: 'w2',
    });
  });

  test("the count made goes on from the memory's; a memory without one, from the highest id pending", () => {
    const clock = makeManualClock(start);
    const counted: { wakeUpsMade?: number } = { wakeUpsMade: 4 };
    const wakeUps = makeWakeUps({ stored: [], counted, clock, max: 3, onDue: () => {} });
    const args = { note: 'tea', delaySeconds: 10, at: undefined, cancel: undefined };
    expect(wakeUps.schedule(args, undefined)).toMatchObject({ scheduled: 'w5' });
    expect(counted.wakeUpsMade).toBe(5);
    const older: { wakeUpsMade?: number } = {};
    const stored: WakeUp[] = [{ id: 'w7', at: start + 60_000, note: 'older', setAt: start }];
    const again = makeWakeUps({ stored, counted: older, clock, max: 3, onDue: () => {} });
    expect(again.schedule(args, undefined)).toMatchObject({ scheduled: 'w8' });
    expect(older.wakeUpsMade).toBe(8);
  });

  test('stop disarms every timer; armAll arms what was stored, each once', () => {
    const clock = makeManualClock(start);
    const due: string[] = [];
    const stored: WakeUp[] = [
      { id: 'w1', at: start + 1_000, note: 'a', setAt: start },
      { id: 'w2', at: start + 2_000, note: 'b', setAt: start },
    ];
    const wakeUps = makeWakeUps({ stored, clock, max: 5, onDue: id => due.push(id) });
    wakeUps.armAll();
    wakeUps.armAll();
    clock.advance(1_000);
    expect(due).toEqual(['w1']);
    wakeUps.stop();
    clock.advance(5_000);
    expect(due).toEqual(['w1']);
    // Stopped (the agent was cancelled): nothing is armed again.
    wakeUps.armAll();
    clock.advance(5_000);
    expect(due).toEqual(['w1']);
  });

  test('a long note is cut in the status line', () => {
    const { wakeUps, args } = setUp();
    wakeUps.schedule(args({ delaySeconds: 10, note: 'n'.repeat(200) }), {
      number: 3n,
      sender: 'bob',
    });
    const [line] = wakeUps.describe();
    expect(line).toContain(`for bob: "${'n'.repeat(120)}…"`);
  });
});

describe('stored wake-ups and their notice', () => {
  test('isWakeUp accepts what schedule stores and refuses damaged records', () => {
    const good = { id: 'w1', at: 1, note: 'x', setAt: 0 };
    expect(isWakeUp(good)).toBe(true);
    expect(isWakeUp({ ...good, origin: { number: '12', sender: 'alice' } })).toBe(true);
    expect(isWakeUp(null)).toBe(false);
    expect(isWakeUp('w1')).toBe(false);
    expect(isWakeUp({ ...good, at: '1' })).toBe(false);
    expect(isWakeUp({ ...good, note: undefined })).toBe(false);
    expect(isWakeUp({ ...good, origin: { number: '-1', sender: 'alice' } })).toBe(false);
    expect(isWakeUp({ ...good, origin: { number: '12' } })).toBe(false);
  });

  test('originOf gives the message back as a bigint', () => {
    expect(
      originOf({ id: 'w1', at: 1, note: 'x', setAt: 0, origin: { number: '12', sender: 'alice' } }),
    ).toEqual({ number: 12n, sender: 'alice' });
    expect(originOf({ id: 'w1', at: 1, note: 'x', setAt: 0 })).toBeUndefined();
  });

  test('the notice names whom to tell and the message it was set for', () => {
    const withOrigin = wakeUpNotice({
      id: 'w2',
      at: start,
      note: 'ring',
      setAt: start - 1_000,
      origin: { number: '5', sender: 'alice' },
    });
    expect(withOrigin).toContain('while serving message #5 from alice');
    expect(withOrigin).toContain('send("alice", …) (message #5 may be gone)');
    const bare = wakeUpNotice({ id: 'w3', at: start, note: 'ring', setAt: start });
    expect(bare).not.toContain('while serving');
    expect(bare).toContain('send("HOST", …) (message #? may be gone)');
  });
});
