/**
 * The system clock that wake-ups and quotas use when the host gives none:
 * a time already passed fires on a later tick, not at once; a cancelled call
 * never fires; a time ahead fires once it has come. (The re-arming of waits
 * beyond setTimeout's longest delay is not tested: lockdown freezes Date, so
 * fake timers cannot run under it.)
 */
import { describe, expect, test } from 'vitest';
import { systemClock } from '../src/lifecycle/clock.js';

describe('systemClock', () => {
  test('now is the wall clock', () => {
    const before = Date.now();
    const now = systemClock.now();
    expect(now).toBeGreaterThanOrEqual(before);
    expect(now).toBeLessThanOrEqual(Date.now());
  });

  test('a time already passed fires on a later tick, not during at()', async () => {
    const fired: string[] = [];
    const done = new Promise<void>(resolve => {
      systemClock.at(Date.now() - 1_000, () => {
        fired.push('past');
        resolve();
      });
    });
    expect(fired).toEqual([]);
    await done;
    expect(fired).toEqual(['past']);
  });

  test('a cancelled call never fires; one armed after it does', async () => {
    const fired: string[] = [];
    const cancel = systemClock.at(Date.now(), () => fired.push('cancelled'));
    cancel();
    // Both are due now, so timers run in the order armed: the cancelled one would have run first.
    await new Promise<void>(resolve => systemClock.at(Date.now(), resolve));
    expect(fired).toEqual([]);
  });

  test('a time ahead fires once it has come, after at() returned', async () => {
    const fired: string[] = [];
    const done = new Promise<void>(resolve =>
      systemClock.at(Date.now() + 30, () => {
        fired.push('ahead');
        resolve();
      }),
    );
    expect(fired).toEqual([]);
    await done;
    expect(fired).toEqual(['ahead']);
  });
});
