/**
 * The native Ollama back end (`ollama` SDK, POST /api/chat, non-streaming).
 * The SDK has no retries, timeout or per-request abort for non-streamed
 * calls, so each call gets a fetch of ours that adds the call's signal and a
 * per-attempt timeout, and remembers Retry-After for `withRetries`.
 * The SDK is imported on first use, keeping the caplet's start light.
 */
import type { Ollama } from 'ollama';
import type { ProviderConfig } from './config.js';
import { fromOllamaMessage, toOllamaMessages, toOllamaTools } from './convert-ollama.js';
import {
  abortedFailure,
  connectionFailure,
  httpFailure,
  redact,
  timeoutFailure,
  unexpectedFailure,
} from './provider-errors.js';
import type { FailureContext } from './provider-errors.js';
import { wrongShapeHint } from './actionable-hints.js';
import type { ProviderOptions } from './provider-options.js';
import { raceAbort } from './race-abort.js';
import { DEFAULT_RETRY_POLICY, parseRetryAfter, withRetries } from './retry.js';
import type { RetryPolicy, RetryVerdict } from './retry.js';
import { keepLastMessages } from './trim-history.js';
import { ProviderError } from './types.js';
import type { ChatMessage, ChatOptions, ChatResult, Provider, ToolSchema } from './types.js';

let sdk: Promise<typeof import('ollama')> | undefined;
const loadSdk = () => (sdk ??= import('ollama'));

/** Ids for tool calls that arrive without one: unique per provider and across restarts. */
const makeCallIdSource = (): (() => string) => {
  const prefix = Math.random().toString(36).slice(2, 8);
  let count = 0;
  return () => {
    count += 1;
    return `call_${prefix}_${count}`;
  };
};

/** What one attempt's fetch saw, to tell a timeout from a cancel and read Retry-After. */
interface AttemptState {
  timedOut: boolean;
  retryAfterMs: number | undefined;
  /** The error body's `error` when it was not plain text (OpenAI-compatible servers send an object). */
  errorDetails?: unknown;
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
const makeAttemptFetch = (
  baseFetch: typeof fetch,
  state: AttemptState,
  timeout: AbortSignal,
  signal: AbortSignal | undefined,
): typeof fetch => async (input, init) => {
  const signals = [timeout, ...(signal ? [signal] : []), ...(init?.signal ? [init.signal] : [])];
  const response = await baseFetch(input, { ...init, signal: AbortSignal.any(signals) });
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

const isRetryableStatus = (status: number) => status === 408 || status === 409 || status === 429 || status >= 500;

/** One attempt of a chat call, under a timer of its own and the caller's signal. */
const makeAttemptOnce =
  (setup: {
    host: string;
    baseFetch: typeof globalThis.fetch;
    headers: Record<string, string> | undefined;
    timeoutMs: number;
  }) =>
  async (
    OllamaClient: typeof Ollama,
    request: Parameters<Ollama['chat']>[0] & { stream: false },
    state: AttemptState,
    signal: AbortSignal | undefined,
  ) => {
    // Our own timer rather than AbortSignal.timeout, so it is cleared as soon
    // as the attempt ends (the reply body read included).
    const timeout = new AbortController();
    const timer = setTimeout(() => {
      state.timedOut = true;
      timeout.abort();
    }, setup.timeoutMs);
    const client = new OllamaClient({
      host: setup.host,
      fetch: makeAttemptFetch(setup.baseFetch, state, timeout.signal, signal),
      ...(setup.headers ? { headers: setup.headers } : {}),
    });
    try {
      return await client.chat(request);
    } finally {
      clearTimeout(timer);
    }
  };

/** Turns whatever one attempt threw into a ProviderError and a retry verdict. */
const judgeAttempt = (
  error: unknown,
  state: AttemptState,
  signal: AbortSignal | undefined,
  context: FailureContext,
  timeoutMs: number,
) => {
  if (signal?.aborted) return { failure: abortedFailure(), retry: false };
  const status = statusOf(error);
  if (status !== undefined) {
    const message = error instanceof Error ? error.message : undefined;
    return { failure: httpFailure(status, message, context, state.errorDetails), retry: isRetryableStatus(status) };
  }
  if (state.timedOut) return { failure: timeoutFailure(context, timeoutMs), retry: true };
  if (error instanceof TypeError) return { failure: connectionFailure(error, context), retry: true };
  return { failure: unexpectedFailure(error, context), retry: false };
};

export const makeOllamaProvider = (config: ProviderConfig, options: ProviderOptions = {}): Provider => {
  const log = options.log ?? (() => {});
  const baseFetch = options.fetch ?? globalThis.fetch;
  const timeoutMs = options.timeoutMs ?? config.timeoutMs;
  const policy: RetryPolicy = {
    ...DEFAULT_RETRY_POLICY,
    ...options.retryDelays,
    maxRetries: options.maxRetries ?? config.maxRetries,
  };
  const context: FailureContext = {
    service: 'Ollama',
    host: config.host,
    model: config.model,
    secrets: [config.authToken],
  };
  const newId = makeCallIdSource();
  const headers = config.authToken === undefined ? undefined : { Authorization: `Bearer ${config.authToken}` };

  const attemptOnce = makeAttemptOnce({ host: config.host, baseFetch, headers, timeoutMs });
  const judge = (error: unknown, state: AttemptState, signal: AbortSignal | undefined) =>
    judgeAttempt(error, state, signal, context, timeoutMs);

  const chat = async (
    messages: readonly ChatMessage[],
    tools: readonly ToolSchema[],
    chatOptions: ChatOptions = {},
  ): Promise<ChatResult> => {
    const { signal } = chatOptions;
    const { Ollama: OllamaClient } = await raceAbort(loadSdk(), signal);
    const request = {
      model: config.model,
      messages: toOllamaMessages(keepLastMessages(messages, config.maxMessages)),
      ...(tools.length > 0 ? { tools: toOllamaTools(tools) } : {}),
      options: {
        num_ctx: config.contextWindow,
        ...(config.maxTokens === undefined ? {} : { num_predict: config.maxTokens }),
      },
      stream: false as const,
    };
    const verdicts = new WeakMap<object, RetryVerdict>();
    const run = withRetries(
      async attemptIndex => {
        const state: AttemptState = { timedOut: false, retryAfterMs: undefined };
        try {
          return await attemptOnce(OllamaClient, request, state, signal);
        } catch (error) {
          const { failure, retry } = judge(error, state, signal);
          if (retry && attemptIndex < policy.maxRetries) {
            log(`Ollama: ${failure.message} Retrying (${attemptIndex + 1} of ${policy.maxRetries}).`);
          }
          verdicts.set(failure, { retry, retryAfterMs: state.retryAfterMs });
          throw failure;
        }
      },
      error => (typeof error === 'object' && error !== null && verdicts.get(error)) || { retry: false },
      policy,
      signal,
    );
    let response;
    try {
      response = await raceAbort(run, signal);
    } catch (error) {
      if (error instanceof ProviderError) throw error;
      throw signal?.aborted ? abortedFailure() : unexpectedFailure(error, context);
    }
    if (response === null || typeof response !== 'object' || response.message === null || typeof response.message !== 'object') {
      throw new ProviderError('unknown', redact(wrongShapeHint(context, response), context.secrets));
    }
    const message = fromOllamaMessage(response.message, newId);
    const reported = response.prompt_eval_count !== undefined || response.eval_count !== undefined;
    return reported
      ? { message, usage: { inputTokens: response.prompt_eval_count ?? 0, outputTokens: response.eval_count ?? 0 } }
      : { message };
  };

  return harden({ kind: 'ollama', model: config.model, chat });
};
