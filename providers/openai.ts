/**
 * The OpenAI-compatible back end (`openai` SDK, POST {LAL_HOST}/chat/completions,
 * streamed: Server-Sent Events, usage asked for in the last chunk): OpenAI,
 * llama.cpp, vLLM, OpenRouter, Ollama's /v1. A server that answers the whole
 * completion as JSON instead is read as before (./openai-stream.ts).
 * Retries are the SDK's own (checked in openai 6.49.0 src/client.ts:
 * 408/409/429/5xx and connection errors and timeouts, `maxRetries` times,
 * waiting 0.5 s doubling to 8 s with jitter unless the server sends
 * retry-after-ms or Retry-After, which it obeys). Its sleep between retries
 * ignores the abort signal, hence `raceAbort`.
 * The SDK is imported on first use, keeping the caplet's start light.
 */
import type OpenAI from 'openai';
import type { ProviderConfig } from './config.js';
import { fromOpenAIMessage, toOpenAIMessages, toOpenAITools } from './convert-openai.js';
import { cachedInputTokens, promptCacheFields } from './openai-cache.js';
import { redact, timeoutFailure } from './provider-errors.js';
import { makeOpenAIStreamCollector, type CollectedCompletion } from './openai-stream.js';
import { answeredWhole, makeStallWatch, type StallWatch } from './stall-watch.js';
import { wrongShapeHint } from './actionable-hints.js';
import type { FailureContext } from './provider-errors.js';
import type { ProviderOptions } from './provider-options.js';
import { raceAbort, runAbortable } from './race-abort.js';
import { refuseLongWaits } from './refuse-long-waits.js';
import { DEFAULT_RETRY_POLICY } from './retry.js';
import { makeSdkLogger, sdkFailure } from './sdk-failure.js';
import { keepLastMessages } from './trim-history.js';
import { ProviderError } from './types.js';
import type { ChatMessage, ChatOptions, ChatResult, Provider, ToolSchema } from './types.js';

let sdk: Promise<typeof import('openai')> | undefined;
const loadSdk = () => (sdk ??= import('openai'));

export const makeOpenAIProvider = (
  config: ProviderConfig,
  options: ProviderOptions = {},
): Provider => {
  const secrets = [config.authToken];
  const log = (line: string) => options.log?.(redact(line, secrets));
  const timeoutMs = options.timeoutMs ?? config.timeoutMs;
  const context: FailureContext = {
    service: 'OpenAI-compatible server',
    host: config.host,
    model: config.model,
    secrets,
  };
  let client: OpenAI | undefined;

  const clientFrom = (OpenAIClient: typeof OpenAI): OpenAI =>
    (client ??= new OpenAIClient({
      baseURL: config.host,
      // Local servers need no key; the SDK insists on one, so a placeholder is
      // given and its Authorization header removed (a null default header).
      apiKey: config.authToken ?? 'no-key',
      ...(config.authToken === undefined ? { defaultHeaders: { Authorization: null } } : {}),
      // Everything explicit, so no OPENAI_* variable of the process leaks in.
      organization: null,
      project: null,
      webhookSecret: null,
      maxRetries: options.maxRetries ?? config.maxRetries,
      timeout: timeoutMs,
      fetch: refuseLongWaits(
        options.fetch ?? globalThis.fetch,
        options.retryDelays?.maxRetryAfterMs ?? DEFAULT_RETRY_POLICY.maxRetryAfterMs,
      ),
      logLevel: options.log ? 'info' : 'off',
      logger: makeSdkLogger(log, 'OpenAI-compatible server'),
    }));

  /** The whole completion, read from its stream (or from the JSON a server sent instead). */
  const streamCompletion = async (
    module: typeof import('openai'),
    body: OpenAI.Chat.Completions.ChatCompletionCreateParamsStreaming,
    { signal, onText }: ChatOptions,
  ): Promise<CollectedCompletion | OpenAI.Chat.Completions.ChatCompletion | undefined> => {
    let watch: StallWatch | undefined;
    try {
      return await runAbortable(signal, async callSignal => {
        const { data: stream, response } = await clientFrom(module.default)
          .chat.completions.create(body, callSignal ? { signal: callSignal } : {})
          .withResponse();
        if (answeredWhole(response))
          return (await response.json()) as OpenAI.Chat.Completions.ChatCompletion;
        const collector = makeOpenAIStreamCollector(onText);
        watch = makeStallWatch(timeoutMs, () => stream.controller.abort());
        for await (const chunk of stream) {
          watch.touch();
          collector.add(chunk);
        }
        // The SDK ends a stream it was told to abort as if it were whole.
        if (watch.stalled) throw timeoutFailure(context, timeoutMs);
        return collector.completion();
      });
    } catch (error) {
      throw watch?.stalled
        ? timeoutFailure(context, timeoutMs)
        : sdkFailure(error, module, context, timeoutMs, signal);
    } finally {
      watch?.stop();
    }
  };

  const chat = async (
    messages: readonly ChatMessage[],
    tools: readonly ToolSchema[],
    chatOptions: ChatOptions = {},
  ): Promise<ChatResult> => {
    const { signal } = chatOptions;
    const module = await raceAbort(loadSdk(), signal);
    const body: OpenAI.Chat.Completions.ChatCompletionCreateParamsStreaming = {
      model: config.model,
      messages: toOpenAIMessages(keepLastMessages(messages, config.maxMessages)),
      ...(tools.length > 0 ? { tools: toOpenAITools(tools) } : {}),
      ...(config.maxTokens === undefined ? {} : { max_tokens: config.maxTokens }),
      ...promptCacheFields(config.host, messages),
      stream: true,
      stream_options: { include_usage: true },
    };
    const completion = await streamCompletion(module, body, chatOptions);
    const choice = Array.isArray(completion?.choices) ? completion.choices[0] : undefined;
    if (
      choice === undefined ||
      choice === null ||
      typeof choice.message !== 'object' ||
      choice.message === null
    ) {
      throw new ProviderError('unknown', redact(wrongShapeHint(context, completion), secrets));
    }
    const message = fromOpenAIMessage(choice.message);
    // The output limit cut the reply (max_tokens): its calls may be incomplete.
    const cut = choice.finish_reason === 'length' ? ({ truncated: true } as const) : {};
    const usage = completion?.usage;
    const cached = cachedInputTokens(
      usage,
      (completion as { timings?: Record<string, unknown> } | undefined)?.timings,
    );
    return usage
      ? {
          message,
          ...cut,
          usage: {
            inputTokens: usage.prompt_tokens,
            outputTokens: usage.completion_tokens,
            ...(cached === undefined ? {} : { cachedInputTokens: cached }),
          },
        }
      : { message, ...cut };
  };

  return harden({ kind: 'openai', model: config.model, chat });
};
harden(makeOpenAIProvider);
