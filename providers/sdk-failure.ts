/**
 * The OpenAI and Anthropic SDKs share one error family (APIError with
 * `status`, and its connection / timeout / user-abort subclasses); this maps
 * it to a ProviderError. By the time an error gets here the SDK has already
 * run its own retries.
 */
import {
  abortedFailure,
  connectionFailure,
  httpFailure,
  timeoutFailure,
  unexpectedFailure,
} from './provider-errors.js';
import type { FailureContext } from './provider-errors.js';
import { ProviderError } from './types.js';

type ErrorClass = abstract new (...args: never[]) => Error;

export interface SdkErrorClasses {
  APIError: ErrorClass;
  APIUserAbortError: ErrorClass;
  APIConnectionError: ErrorClass;
  APIConnectionTimeoutError: ErrorClass;
}

/**
 * The server's own words: OpenAI puts `{ message }` in `error`, Anthropic the
 * whole `{ type: 'error', error: { message } }` body.
 */
const serverMessage = (error: Error): string | undefined => {
  const body = (error as { error?: unknown }).error;
  // The SDK's own message starts with the status ("404 404 page not found"), said elsewhere.
  if (body === null || typeof body !== 'object') return error.message.replace(/^\d{3}\s+/, '');
  const outer = body as { message?: unknown; error?: { message?: unknown } };
  if (typeof outer.message === 'string') return outer.message;
  if (typeof outer.error?.message === 'string') return outer.error.message;
  return error.message;
};

export const sdkFailure = (
  error: unknown,
  classes: SdkErrorClasses,
  context: FailureContext,
  timeoutMs: number,
  signal: AbortSignal | undefined,
  /** How many attempts a timeout was the last of: the SDK gives up on one only once its retries are spent. */
  attempts = 1,
): ProviderError => {
  if (error instanceof ProviderError) return error;
  if (signal?.aborted || error instanceof classes.APIUserAbortError) return abortedFailure();
  if (error instanceof classes.APIConnectionTimeoutError)
    return timeoutFailure(context, timeoutMs, attempts);
  if (error instanceof classes.APIConnectionError) return connectionFailure(error, context);
  if (error instanceof classes.APIError) {
    const status = (error as { status?: unknown }).status;
    if (typeof status === 'number')
      return httpFailure(
        status,
        serverMessage(error),
        context,
        (error as { error?: unknown }).error,
      );
  }
  return unexpectedFailure(error, context);
};
harden(sdkFailure);

/**
 * A logger for the SDKs that passes on only what a person wants to see —
 * retries and warnings — with secrets removed by the caller's `log`.
 */
export const makeSdkLogger = (log: (line: string) => void, service: string) => {
  const forward = (message: string) => log(`${service}: ${message}`);
  return {
    error: forward,
    warn: forward,
    info: (message: string) => {
      if (/retrying/.test(message)) forward(message);
    },
    debug: () => {},
  };
};
harden(makeSdkLogger);
