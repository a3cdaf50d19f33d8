/**
 * Retries with exponential backoff that honours Retry-After, for the SDK that
 * has no retries of its own (ollama). The policy mirrors the OpenAI and
 * Anthropic SDKs' (0.5 s doubling to 8 s, up to 25 % jitter, a server's
 * Retry-After wins) so that all three providers behave alike.
 */
export interface RetryPolicy {
  maxRetries: number;
  baseDelayMs: number;
  maxDelayMs: number;
  /** A server asking for a longer wait than this is not retried. */
  maxRetryAfterMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  maxRetries: 2,
  baseDelayMs: 500,
  maxDelayMs: 8000,
  maxRetryAfterMs: 60_000,
};
harden(DEFAULT_RETRY_POLICY);

export interface RetryVerdict {
  retry: boolean;
  /** The server's Retry-After, in milliseconds, when it gave one. */
  retryAfterMs?: number | undefined;
}

/** Retry-After is either delay-seconds or an HTTP date; also accepts retry-after-ms. */
export const parseRetryAfter = (
  headers: { get(name: string): string | null },
  now: number = Date.now(),
): number | undefined => {
  const millis = Number.parseFloat(headers.get('retry-after-ms') ?? '');
  if (Number.isFinite(millis) && millis >= 0) return millis;
  const value = headers.get('retry-after');
  if (value === null || value.trim() === '') return undefined;
  const seconds = Number(value.trim());
  if (Number.isFinite(seconds)) return seconds >= 0 ? seconds * 1000 : undefined;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
};
harden(parseRetryAfter);

const backoffDelayMs = (retryIndex: number, policy: RetryPolicy): number => {
  const plain = Math.min(policy.baseDelayMs * 2 ** retryIndex, policy.maxDelayMs);
  return plain * (1 - Math.random() * 0.25);
};

/** An abort's reason as an Error: a caller may abort with any value, and we reject only with Errors. */
const abortError = (reason: unknown): Error =>
  reason instanceof Error
    ? reason
    : Error('The wait before the next attempt was cancelled.', { cause: reason });

const sleep = (ms: number, signal: AbortSignal | undefined): Promise<void> =>
  new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(abortError(signal.reason));
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      reject(abortError(signal?.reason));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });

/** Runs `attempt` until it succeeds, a failure is not retryable, or retries run out. */
export const withRetries = async <T>(
  attempt: (attemptIndex: number) => Promise<T>,
  classify: (error: unknown) => RetryVerdict,
  policy: RetryPolicy,
  signal?: AbortSignal,
): Promise<T> => {
  for (let attemptIndex = 0; ; attemptIndex += 1) {
    try {
      // eslint-disable-next-line no-await-in-loop -- attempts are sequential: the next waits for this one to fail and for the backoff
      return await attempt(attemptIndex);
    } catch (error) {
      const verdict = classify(error);
      if (!verdict.retry || attemptIndex >= policy.maxRetries || signal?.aborted) throw error;
      const asked = verdict.retryAfterMs;
      if (asked !== undefined && asked > policy.maxRetryAfterMs) throw error;
      // eslint-disable-next-line no-await-in-loop -- attempts are sequential: the next waits for this one to fail and for the backoff
      await sleep(asked ?? backoffDelayMs(attemptIndex, policy), signal);
    }
  }
};
harden(withRetries);
