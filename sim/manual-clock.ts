/**
 * A clock a test or the bench moves by hand: calls armed with `at` run when
 * `advance` passes their time, so a quota's hour, a wake-up's delay or a
 * simulated day costs no waiting.
 */
import type { Clock } from '../src/lifecycle/clock.js';

export interface ManualClock extends Clock {
  advance(ms: number): void;
}

export const makeManualClock = (start = Date.UTC(2026, 10, 23, 9, 0, 0)): ManualClock => {
  let now = start;
  const armed = new Set<{ time: number; fire: () => void }>();
  return {
    now: () => now,
    at(time, fire) {
      const entry = { time, fire };
      armed.add(entry);
      if (time <= now) queueMicrotask(() => advanceBy(0));
      return () => armed.delete(entry);
    },
    advance: ms => advanceBy(ms),
  };
  function advanceBy(ms: number) {
    now += ms;
    for (const entry of [...armed].sort((a, b) => a.time - b.time)) {
      if (entry.time <= now && armed.delete(entry)) entry.fire();
    }
  }
};
harden(makeManualClock);
