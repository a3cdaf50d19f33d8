/**
 * Settles with the promise, or rejects with a timeout error after `ms`, or
 * rejects at once when the signal aborts. Whichever comes first, the timer
 * is cleared and the abort listener removed: a tool call that never settles
 * must not leave a listener on the agent's long-lived signal. The timer
 * never keeps the process alive.
 */
export class TimeoutError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TimeoutError';
  }
}

export const runWithTimeout = <T>(
  promise: Promise<T>,
  ms: number,
  describe: string,
  signal?: AbortSignal,
): Promise<T> =>
  new Promise<T>((resolve, reject) => {
    let settled = false;
    const finish = (settle: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      settle();
    };
    const onAbort = () => finish(() => reject(new Error(`${describe} was cancelled`)));
    const timer = setTimeout(
      () => finish(() => reject(new TimeoutError(`${describe} timed out after ${ms} ms`))),
      ms,
    );
    timer.unref?.();
    // Followed even when the signal aborted already: a promise nobody waits for any more still has
    // its rejection handled, not reported as unhandled (issue 45).
    promise.then(
      value => finish(() => resolve(value)),
      (error: unknown) => finish(() => reject(error)),
    );
    if (signal?.aborted === true) onAbort();
    else signal?.addEventListener('abort', onAbort, { once: true });
  });
harden(runWithTimeout);
