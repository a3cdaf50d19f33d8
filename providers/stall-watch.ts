/**
 * A streamed reply that stops arriving: the SDKs' timeouts end when the
 * response's headers arrive, so a server that stalls mid-reply would hold the
 * turn forever. The watch is reset by each piece of the stream and calls
 * `onStall` when none came for `timeoutMs` (LAL_REQUEST_TIMEOUT_MS, the same limit as
 * for a whole unstreamed reply).
 */
export interface StallWatch {
  /** A piece arrived: the wait starts again. */
  touch(): void;
  stop(): void;
  readonly stalled: boolean;
}

/** The timers the watch waits with: the host's, or a test's clock (fake timers cannot replace lockdown's frozen Date). */
export interface WatchTimers {
  set(callback: () => void, ms: number): unknown;
  clear(timer: unknown): void;
}

const hostTimers: WatchTimers = {
  set: (callback, ms) => setTimeout(callback, ms),
  clear: timer => clearTimeout(timer as ReturnType<typeof setTimeout> | undefined),
};

export const makeStallWatch = (
  timeoutMs: number,
  onStall: () => void,
  timers: WatchTimers = hostTimers,
): StallWatch => {
  let timer: unknown;
  let stalled = false;
  const touch = () => {
    timers.clear(timer);
    timer = timers.set(() => {
      stalled = true;
      onStall();
    }, timeoutMs);
  };
  touch();
  return {
    touch,
    stop: () => timers.clear(timer),
    get stalled() {
      return stalled;
    },
  };
};
harden(makeStallWatch);

/** Whether a response carries a whole JSON reply rather than the stream that was asked for. */
export const answeredWhole = (response: Response): boolean =>
  /json/i.test(response.headers.get('content-type') ?? '') &&
  !/ndjson/i.test(response.headers.get('content-type') ?? '');
harden(answeredWhole);
