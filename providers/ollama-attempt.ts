/**
 * One attempt at Ollama's POST /api/chat, streamed: the SDK client on a fetch
 * of ours that adds the call's signal and a timeout (restarted by each part
 * of the stream, so a reply that stalls midway times out too), reads
 * Retry-After and error bodies; and what an attempt's failure means (a
 * ProviderError, and whether to try again).
 */
import type { ChatResponse, Ollama } from 'ollama';
import type { ProviderConfig } from './config.js';
import {
  abortedFailure,
  connectionFailure,
  httpFailure,
  timeoutFailure,
  unexpectedFailure,
} from './provider-errors.js';
import type { FailureContext } from './provider-errors.js';
import { parseRetryAfter } from './retry.js';
import { makeOllamaStreamCollector } from './ollama-stream.js';
import { answeredWhole, makeStallWatch } from './stall-watch.js';

/** What one attempt's fetch saw, to tell a timeout from a cancel and read Retry-After. */
export interface AttemptState {
  timedOut: boolean;
  retryAfterMs: number | undefined;
  /** The error body's `error` when it was not plain text (OpenAI-compatible servers send an object). */
  errorDetails?: unknown;
  /** The reply, when the server answered it whole as JSON rather than streamed. */
  whole?: { value: unknown };
}

/** The words of an error body: Ollama's `{ error: text }`, an OpenAI-style `{ error: { message } }`, or the text itself. */
const errorWords = (text: string, state: AttemptState): string => {
  try {
    const body = JSON.parse(text) as { error?: unknown; message?: unknown };
    if (typeof body.error === 'string') return body.error;
    state.errorDetails = body.error;
    const inner = body.error as { message?: unknown } | undefined;
    if (typeof inner?.message === 'string') return inner.message;
    if (typeof body.message === 'string') return body.message;
  } catch {
    // Not JSON: the text is the message.
  }
  return text;
};

/**
 * Wraps fetch for one attempt: the call's signal and a timeout abort it, and a
 * non-JSON error body is re-labelled as Ollama's `{ error }` JSON, which keeps
 * the SDK from printing to the console while it reads it.
 */
const makeAttemptFetch =
  (
    baseFetch: typeof fetch,
    state: AttemptState,
    timeout: AbortSignal,
    signal: AbortSignal | undefined,
  ): typeof fetch =>
  async (input, init) => {
    const signals = [timeout, ...(signal ? [signal] : []), ...(init?.signal ? [init.signal] : [])];
    const response = await baseFetch(input, { ...init, signal: AbortSignal.any(signals) });
    if (response.ok && answeredWhole(response)) {
      // A whole JSON reply (a server that does not stream): kept here, and the
      // SDK handed a stream that ends at once, so it never reads it as lines.
      state.whole = { value: await response.json() };
      return new Response('{"done":true}\n', {
        headers: { 'content-type': 'application/x-ndjson' },
      });
    }
    if (response.ok) return response;
    state.retryAfterMs = parseRetryAfter(response.headers);
    const text = await response.text();
    return new Response(JSON.stringify({ error: errorWords(text, state) || response.statusText }), {
      status: response.status,
      headers: { 'content-type': 'application/json' },
    });
  };

const statusOf = (error: unknown): number | undefined => {
  const status = (error as { status_code?: unknown } | null)?.status_code;
  return typeof status === 'number' ? status : undefined;
};

const isRetryableStatus = (status: number) =>
  status === 408 || status === 409 || status === 429 || status >= 500;

export type OllamaChatRequest = Omit<Parameters<Ollama['chat']>[0], 'stream'> & { stream: true };

export const makeOllamaAttempt = (
  config: ProviderConfig,
  baseFetch: typeof fetch,
  timeoutMs: number,
  context: FailureContext,
) => {
  const headers =
    config.authToken === undefined ? undefined : { Authorization: `Bearer ${config.authToken}` };

  const attemptOnce = async (
    OllamaClient: typeof Ollama,
    request: OllamaChatRequest,
    state: AttemptState,
    signal: AbortSignal | undefined,
    onText?: (textSoFar: string) => void,
  ) => {
    // Our own timer rather than AbortSignal.timeout, so it is cleared as soon
    // as the attempt ends, and restarted by each part that arrives.
    const timeout = new AbortController();
    const watch = makeStallWatch(timeoutMs, () => {
      state.timedOut = true;
      timeout.abort();
    });
    const client = new OllamaClient({
      host: config.host,
      fetch: makeAttemptFetch(baseFetch, state, timeout.signal, signal),
      ...(headers ? { headers } : {}),
    });
    try {
      const collector = makeOllamaStreamCollector(onText);
      for await (const part of await client.chat(request)) {
        watch.touch();
        collector.add(part);
      }
      return state.whole === undefined ? collector.whole() : (state.whole.value as ChatResponse);
    } finally {
      watch.stop();
    }
  };

  /** Turns whatever attempt number `attempt` (from 1) threw into a ProviderError and a retry verdict. */
  const judge = (
    error: unknown,
    state: AttemptState,
    signal: AbortSignal | undefined,
    attempt = 1,
  ) => {
    if (signal?.aborted) return { failure: abortedFailure(), retry: false };
    const status = statusOf(error);
    if (status !== undefined) {
      const message = error instanceof Error ? error.message : undefined;
      return {
        failure: httpFailure(status, message, context, state.errorDetails),
        retry: isRetryableStatus(status),
      };
    }
    if (state.timedOut)
      return { failure: timeoutFailure(context, timeoutMs, attempt), retry: true };
    if (error instanceof TypeError)
      return { failure: connectionFailure(error, context), retry: true };
    return { failure: unexpectedFailure(error, context), retry: false };
  };

  return { attemptOnce, judge };
};
harden(makeOllamaAttempt);
