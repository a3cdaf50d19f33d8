/**
 * The one owner of work held back until it may be served: per key, the
 * work parked in arrival order, the timer that releases it, and the release
 * itself, which puts every piece back on the agent's queue in order (nothing
 * is dropped). The hourly quotas (src/usage/quota-waits.ts) and the bounds
 * on conversations with other agents (src/peers/conversation-bounds.ts)
 * both park here; each decides only whether and until when (its judge).
 */
import type { Clock } from './clock.js';

export interface ParkedWork<W> {
  /**
   * Parks `work` under `key`; with `until`, a release is due then (a later
   * time moves a release already due earlier; an earlier one leaves it).
   */
  park(key: string, work: W, until?: number): void;
  /** Puts the work parked under `key` back on the queue, in order, and stops its timer. */
  release(key: string): void;
  /** How many pieces wait under `key`. */
  count(key: string): number;
  /** Stops every timer; the work stays parked (a message stays in the inbox for the next run). */
  stop(): void;
}

export const makeParkedWork = <W>(options: {
  clock: Clock;
  requeue: (work: W) => void;
  /** Told of each key released, before its work goes back (to clear what marks it held). */
  onRelease?: (key: string) => void;
}): ParkedWork<W> => {
  const { clock, requeue } = options;
  const parked = new Map<string, W[]>();
  const timers = new Map<string, { until: number; disarm: () => void }>();
  const release = (key: string) => {
    timers.get(key)?.disarm();
    timers.delete(key);
    options.onRelease?.(key);
    const works = parked.get(key) ?? [];
    parked.delete(key);
    for (const work of works) requeue(work);
  };
  return harden({
    park(key: string, work: W, until?: number) {
      const list = parked.get(key) ?? [];
      list.push(work);
      parked.set(key, list);
      if (until === undefined) return;
      const armed = timers.get(key);
      if (armed !== undefined && armed.until >= until) return;
      armed?.disarm();
      timers.set(key, {
        until,
        disarm: clock.at(until, () => {
          timers.delete(key);
          release(key);
        }),
      });
    },
    release,
    count: (key: string) => parked.get(key)?.length ?? 0,
    stop() {
      for (const { disarm } of timers.values()) disarm();
      timers.clear();
    },
  });
};
harden(makeParkedWork);
