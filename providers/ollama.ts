/**
 * The native Ollama back end (`ollama` SDK, POST /api/chat, streamed as NDJSON
 * and collected by ./ollama-stream.ts). The SDK has no retries or timeout, so
 * each call gets a fetch of ours that adds the call's signal and a timeout,
 * and remembers Retry-After for `withRetries`.
 * The SDK is imported on first use, keeping the caplet's start light.
 */
import type { ProviderConfig } from './config.js';
import { fromOllamaMessage, toOllamaMessages, toOllamaTools } from './convert-ollama.js';
import { makeOllamaAttempt, type AttemptState } from './ollama-attempt.js';
import { abortedFailure, unexpectedFailure } from './provider-errors.js';
import type { ProviderOptions } from './provider-options.js';
import { lazySdk, makeProviderShell } from './provider-shell.js';
import { raceAbort } from './race-abort.js';
import { DEFAULT_RETRY_POLICY, withRetries } from './retry.js';
import type { RetryPolicy, RetryVerdict } from './retry.js';
import { keepLastMessages } from './trim-history.js';
import { ProviderError } from './types.js';
import type { ChatMessage, ChatOptions, ChatResult, Provider, ToolSchema } from './types.js';

const loadSdk = lazySdk(() => import('ollama'));

/** Ids for tool calls that arrive without one: unique per provider and across restarts. */
const makeCallIdSource = (): (() => string) => {
  const prefix = Math.random().toString(36).slice(2, 8);
  let count = 0;
  return () => {
    count += 1;
    return `call_${prefix}_${count}`;
  };
};

export const makeOllamaProvider = (
  config: ProviderConfig,
  options: ProviderOptions = {},
): Provider => {
  const shell = makeProviderShell('Ollama', config, options);
  const { log, timeoutMs, context } = shell;
  const baseFetch = options.fetch ?? globalThis.fetch;
  const policy: RetryPolicy = {
    ...DEFAULT_RETRY_POLICY,
    ...options.retryDelays,
    maxRetries: shell.maxRetries,
  };
  const newId = makeCallIdSource();

  const { attemptOnce, judge } = makeOllamaAttempt(config, baseFetch, timeoutMs, context);

  const chat = async (
    messages: readonly ChatMessage[],
    tools: readonly ToolSchema[],
    chatOptions: ChatOptions = {},
  ): Promise<ChatResult> => {
    const { signal, onText } = chatOptions;
    const { Ollama: OllamaClient } = await loadSdk(signal);
    const request = {
      model: config.model,
      messages: toOllamaMessages(keepLastMessages(messages, config.maxMessages)),
      ...(tools.length > 0 ? { tools: toOllamaTools(tools) } : {}),
      options: {
        num_ctx: config.contextWindow,
        ...(config.maxTokens === undefined ? {} : { num_predict: config.maxTokens }),
      },
      stream: true as const,
    };
    const verdicts = new WeakMap<object, RetryVerdict>();
    const run = withRetries(
      async attemptIndex => {
        const state: AttemptState = { timedOut: false, retryAfterMs: undefined };
        try {
          return await attemptOnce(OllamaClient, request, state, signal, onText);
        } catch (error) {
          const { failure, retry } = judge(error, state, signal, attemptIndex + 1);
          if (retry && attemptIndex < policy.maxRetries) {
            log(
              `Ollama: ${failure.message} Retrying (${attemptIndex + 1} of ${policy.maxRetries}).`,
            );
          }
          verdicts.set(failure, { retry, retryAfterMs: state.retryAfterMs });
          throw failure;
        }
      },
      error =>
        (typeof error === 'object' && error !== null && verdicts.get(error)) || { retry: false },
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
    if (
      response === null ||
      typeof response !== 'object' ||
      response.message === null ||
      typeof response.message !== 'object'
    ) {
      throw shell.wrongShape(response);
    }
    const message = fromOllamaMessage(response.message, newId);
    // num_predict cut the reply: its calls may be incomplete.
    const cut = response.done_reason === 'length' ? ({ truncated: true } as const) : {};
    const reported = response.prompt_eval_count !== undefined || response.eval_count !== undefined;
    return reported
      ? {
          message,
          ...cut,
          usage: {
            inputTokens: response.prompt_eval_count ?? 0,
            outputTokens: response.eval_count ?? 0,
          },
        }
      : { message, ...cut };
  };

  return harden({ kind: 'ollama', model: config.model, chat });
};
harden(makeOllamaProvider);
