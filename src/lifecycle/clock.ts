/**
 * Time as the agent sees it: the current time, and a call at a given time.
 * Quotas and wake-ups use it; an in-process host (a test) may pass its own.
 */
export interface Clock {
  now(): number;
  /** Calls `fire` at `time` (at once, on a later tick, when it has passed); returns a cancel. */
  at(time: number, fire: () => void): () => void;
}

// setTimeout's largest delay (about 24.8 days); longer waits are re-armed.
const MAX_DELAY_MS = 2_147_483_647;

export const systemClock: Clock = harden({
  now: () => Date.now(),
  at(time: number, fire: () => void) {
    let timer: ReturnType<typeof setTimeout> | undefined;
    let cancelled = false;
    const arm = () => {
      if (cancelled) return;
      const delay = time - Date.now();
      timer = delay <= 0 ? setTimeout(fire, 0) : setTimeout(arm, Math.min(delay, MAX_DELAY_MS));
    };
    arm();
    return () => {
      cancelled = true;
      if (timer !== undefined) clearTimeout(timer);
    };
  },
});
harden(systemClock);
