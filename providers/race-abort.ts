/**
 * Makes a model call stop the moment its signal aborts. The SDKs get the
 * signal too (so the socket is closed), but some of their waits — the OpenAI
 * SDK's sleep between retries, for one — do not listen to it, so the caller
 * is released here rather than when the SDK notices.
 */
import { abortedFailure } from './provider-errors.js';

export const raceAbort = <T>(work: Promise<T>, signal: AbortSignal | undefined): Promise<T> => {
  if (signal === undefined) return work;
  if (signal.aborted) {
    work.catch(() => {});
    return Promise.reject(abortedFailure());
  }
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => {
      reject(abortedFailure());
    };
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(
      value => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
};
harden(raceAbort);

/**
 * Runs one SDK call so that it stops the moment the caller's signal aborts.
 * The SDK gets a signal of its own that follows the caller's: the OpenAI and
 * Anthropic SDKs add an abort listener to the signal they are given and never
 * remove it, so handed the agent's long-lived signal they would grow it by
 * one listener per call. The link is undone when the call settles.
 */
export const runAbortable = async <T>(
  signal: AbortSignal | undefined,
  start: (callSignal: AbortSignal | undefined) => PromiseLike<T>,
): Promise<T> => {
  if (signal === undefined) return start(undefined);
  const controller = new AbortController();
  const onAbort = () => controller.abort(signal.reason);
  if (signal.aborted) onAbort();
  else signal.addEventListener('abort', onAbort, { once: true });
  try {
    return await raceAbort(Promise.resolve(start(controller.signal)), signal);
  } finally {
    signal.removeEventListener('abort', onAbort);
  }
};
harden(runAbortable);
