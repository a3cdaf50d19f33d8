/**
 * The one owner of holds (src/lifecycle/holds.ts), which the hourly quotas,
 * the peer bounds and the postponed schedules all hold in: work comes back
 * in order, per key, when its key is released or its time comes; a later
 * time moves the release, an earlier one leaves it; stop() keeps the work
 * parked; a party is told once per hold and reason, the mark kept in the
 * stored list it is given, forgotten on release (even with nothing parked:
 * a hold kept in the store over a restart) or when served, and the list is
 * bounded without dropping the mark of work still parked. Time is a manual
 * clock.
 */
import { describe, expect, test } from 'vitest';
import { makeHolds, readToldHolds, TOLD_KEPT, type ToldHold } from '../src/lifecycle/holds.js';
import type { Clock } from '../src/lifecycle/clock.js';
import { makeManualClock } from './support/manual-clock.js';

const parkedWith = (told: ToldHold[] = []) => {
  const clock = makeManualClock();
  const requeued: string[] = [];
  const parked = makeHolds<string>({ clock, requeue: work => requeued.push(work), told });
  return { clock, requeued, told, parked };
};

describe('parked work', () => {
  test('comes back in order, per key, when its key is released', () => {
    const { requeued, told, parked } = parkedWith([{ key: 'c', why: 'kept' }]);
    parked.park('a', 'a1');
    parked.park('b', 'b1');
    parked.park('a', 'a2');
    expect(parked.tellOnce('a', 'why')).toBe(true);
    expect([parked.count('a'), parked.count('b'), parked.count('c')]).toEqual([2, 1, 0]);
    parked.release('a');
    expect(requeued).toEqual(['a1', 'a2']);
    expect(parked.toldWhy('a')).toBeUndefined();
    expect(parked.count('a')).toBe(0);
    // A hold read back from the store, with nothing parked: its release forgets its mark.
    parked.release('c');
    expect(told).toEqual([]);
    expect(requeued).toEqual(['a1', 'a2']);
  });

  test('is released at its time; a later time moves the release, an earlier one leaves it', () => {
    const { clock, requeued, parked } = parkedWith();
    const start = clock.now();
    parked.park('q', 'w1', start + 1_000);
    parked.park('q', 'w2', start + 3_000);
    parked.park('q', 'w3', start + 2_000);
    clock.advance(2_500);
    expect(requeued).toEqual([]);
    clock.advance(500);
    expect(requeued).toEqual(['w1', 'w2', 'w3']);
  });

  test('stop() ends the timers and keeps the work parked', () => {
    const { clock, requeued, parked } = parkedWith();
    parked.park('q', 'w1', clock.now() + 1_000);
    parked.stop();
    clock.advance(5_000);
    expect(requeued).toEqual([]);
    expect(parked.count('q')).toBe(1);
  });

  test('a timer is armed only for a time given, and once for the same time', () => {
    // A clock that only records what is armed on it (a time that is not one would fire at once on a real clock).
    const armed: number[] = [];
    const clock: Clock = {
      now: () => 0,
      at: time => {
        armed.push(time);
        return () => {};
      },
    };
    const parked = makeHolds<string>({ clock, requeue: () => {}, told: [] });
    parked.park('held', 'w1');
    parked.park('held', 'w2');
    expect(armed).toEqual([]);
    parked.park('q', 'w3', 1_000);
    parked.park('q', 'w4', 1_000);
    parked.park('q', 'w5', 500);
    expect(armed).toEqual([1_000]);
    parked.park('q', 'w6', 2_000);
    expect(armed).toEqual([1_000, 2_000]);
  });

  test('a release by hand stops the timer: the work comes back once', () => {
    const { clock, requeued, parked } = parkedWith();
    parked.park('q', 'w1', clock.now() + 1_000);
    parked.release('q');
    clock.advance(5_000);
    expect(requeued).toEqual(['w1']);
  });
});

describe('the told-once marks', () => {
  test('a party is told once per hold and reason; the mark is in the stored list, and goes when served or released by its time', () => {
    const { clock, told, parked } = parkedWith();
    expect(parked.tellOnce('k', 'exchanges')).toBe(true);
    expect(parked.tellOnce('k', 'exchanges')).toBe(false);
    expect(told).toEqual([{ key: 'k', why: 'exchanges' }]);
    // Another reason is told again, and replaces the mark.
    expect(parked.tellOnce('k', 'hourly')).toBe(true);
    expect(told).toEqual([{ key: 'k', why: 'hourly' }]);
    expect(parked.toldWhy('k')).toBe('hourly');
    parked.tellOnce('other', 'quota');
    parked.forget('k');
    expect(parked.toldWhy('k')).toBeUndefined();
    // Forgetting what was never marked leaves the others.
    parked.forget('k');
    expect(told).toEqual([{ key: 'other', why: 'quota' }]);
    parked.forget('other');
    expect(parked.tellOnce('k', 'hourly')).toBe(true);
    parked.park('k', 'w', clock.now() + 1_000);
    clock.advance(1_000);
    expect(told).toEqual([]);
  });

  test(`beyond ${TOLD_KEPT} marks the oldest goes, never the mark of work still parked`, () => {
    const { told, parked } = parkedWith();
    parked.park('held', 'w');
    parked.tellOnce('held', 'exchanges');
    for (let index = 0; index < TOLD_KEPT; index += 1) parked.tellOnce(`m${index}`, 'quota');
    expect(told).toHaveLength(TOLD_KEPT);
    expect(parked.toldWhy('held')).toBe('exchanges');
    expect(parked.toldWhy('m0')).toBeUndefined();
    expect(parked.toldWhy(`m${TOLD_KEPT - 1}`)).toBe('quota');
  });

  test('when every mark holds parked work, none goes: the list grows rather than a hold be forgotten', () => {
    const { told, parked } = parkedWith();
    for (let index = 0; index <= TOLD_KEPT; index += 1) {
      parked.park(`s${index}`, `w${index}`);
      parked.tellOnce(`s${index}`, 'exchanges');
    }
    expect(told).toHaveLength(TOLD_KEPT + 1);
    expect(parked.toldWhy(`s${TOLD_KEPT}`)).toBe('exchanges');
  });

  test('read back from the store: whole marks only, one per key; no list is none', () => {
    const mark = { key: 'sender k', why: 'hourly' };
    expect(
      readToldHolds([mark, null, 'k', { key: 1, why: 'x' }, { key: 'k' }, { ...mark, why: 'x' }]),
    ).toEqual({ holds: [mark], lost: 5 });
    expect(readToldHolds({ 0: mark })).toEqual({ holds: [], lost: 0 });
    expect(readToldHolds(undefined)).toEqual({ holds: [], lost: 0 });
  });
});
