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

/**
 * A signal for one SDK call that follows the caller's. The OpenAI and
 * Anthropic SDKs add an abort listener to the signal they are given and
 * never remove it; handed the agent's long-lived signal, they would grow it
 * by one listener per call. `release()` unlinks the per-call signal.
 */
export const perCallSignal = (outer: AbortSignal | undefined): { signal: AbortSignal | undefined; release: () => void } => {
  if (outer === undefined) return { signal: undefined, release: () => {} };
  const controller = new AbortController();
  if (outer.aborted) {
    controller.abort(outer.reason);
    return { signal: controller.signal, release: () => {} };
  }
  const onAbort = () => controller.abort(outer.reason);
  outer.addEventListener('abort', onAbort, { once: true });
  return { signal: controller.signal, release: () => outer.removeEventListener('abort', onAbort) };
};
