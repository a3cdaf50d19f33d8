/**
 * Settles with the promise, or rejects with a timeout error after `ms`, or
 * rejects at once when the signal aborts. The timer never keeps the process
 * alive.
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
    const timer = setTimeout(() => reject(new TimeoutError(`${describe} timed out after ${ms} ms`)), ms);
    timer.unref?.();
    const onAbort = () => {
      clearTimeout(timer);
      reject(new Error(`${describe} was cancelled`));
    };
    signal?.addEventListener('abort', onAbort, { once: true });
    promise.then(
      value => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
