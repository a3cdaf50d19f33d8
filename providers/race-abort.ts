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
