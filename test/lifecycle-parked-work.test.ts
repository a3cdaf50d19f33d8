/**
 * The one owner of held work (src/lifecycle/parked-work.ts), which the
 * hourly quotas and the peer bounds both park in: work comes back in order,
 * per key, when its key is released or its time comes; a later time moves
 * the release, an earlier one leaves it; stop() keeps the work parked; the
 * release hook runs even when nothing is parked (a hold kept in the store
 * over a restart). Time is a manual clock.
 */
import { describe, expect, test } from 'vitest';
import { makeParkedWork } from '../src/lifecycle/parked-work.js';
import { makeManualClock } from './support/manual-clock.js';

const parkedWith = () => {
  const clock = makeManualClock();
  const requeued: string[] = [];
  const released: string[] = [];
  const parked = makeParkedWork<string>({
    clock,
    requeue: work => requeued.push(work),
    onRelease: key => released.push(key),
  });
  return { clock, requeued, released, parked };
};

describe('parked work', () => {
  test('comes back in order, per key, when its key is released', () => {
    const { requeued, released, parked } = parkedWith();
    parked.park('a', 'a1');
    parked.park('b', 'b1');
    parked.park('a', 'a2');
    expect([parked.count('a'), parked.count('b'), parked.count('c')]).toEqual([2, 1, 0]);
    parked.release('a');
    expect(requeued).toEqual(['a1', 'a2']);
    expect(released).toEqual(['a']);
    expect(parked.count('a')).toBe(0);
    parked.release('c');
    expect(released).toEqual(['a', 'c']);
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

  test('a release by hand stops the timer: the work comes back once', () => {
    const { clock, requeued, parked } = parkedWith();
    parked.park('q', 'w1', clock.now() + 1_000);
    parked.release('q');
    clock.advance(5_000);
    expect(requeued).toEqual(['w1']);
  });
});
