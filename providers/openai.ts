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
import { makeOpenAIStreamCollector, type CollectedCompletion } from './openai-stream.js';
import type { ProviderOptions } from './provider-options.js';
import { collectStream, lazySdk, makeProviderShell, sdkClientOptions } from './provider-shell.js';
import { keepLastMessages } from './trim-history.js';
import type { ChatMessage, ChatOptions, ChatResult, Provider, ToolSchema } from './types.js';

const loadSdk = lazySdk(() => import('openai'));

type Completion = CollectedCompletion | OpenAI.Chat.Completions.ChatCompletion | undefined;

export const makeOpenAIProvider = (
  config: ProviderConfig,
  options: ProviderOptions = {},
): Provider => {
  const shell = makeProviderShell('OpenAI-compatible server', config, options);
  let client: OpenAI | undefined;

  const clientFrom = (OpenAIClient: typeof OpenAI): OpenAI =>
    (client ??= new OpenAIClient({
      ...sdkClientOptions(shell, config, options),
      // Local servers need no key; the SDK insists on one, so a placeholder is
      // given and its Authorization header removed (a null default header).
      apiKey: config.authToken ?? 'no-key',
      ...(config.authToken === undefined ? { defaultHeaders: { Authorization: null } } : {}),
      // Everything explicit, so no OPENAI_* variable of the process leaks in.
      organization: null,
      project: null,
      webhookSecret: null,
    }));

  /** The whole completion, read from its stream (or from the JSON a server sent instead). */
  const streamCompletion = (
    module: typeof import('openai'),
    body: OpenAI.Chat.Completions.ChatCompletionCreateParamsStreaming,
    { signal, onText }: ChatOptions,
  ): Promise<Completion> => {
    const collector = makeOpenAIStreamCollector(onText);
    return collectStream<OpenAI.Chat.Completions.ChatCompletionChunk, Completion>(
      shell,
      module,
      signal,
      callSignal =>
        clientFrom(module.default)
          .chat.completions.create(body, callSignal ? { signal: callSignal } : {})
          .withResponse(),
      { add: chunk => collector.add(chunk), whole: () => collector.completion() },
    );
  };

  const chat = async (
    messages: readonly ChatMessage[],
    tools: readonly ToolSchema[],
    chatOptions: ChatOptions = {},
  ): Promise<ChatResult> => {
    const { signal } = chatOptions;
    const module = await loadSdk(signal);
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
      throw shell.wrongShape(completion);
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
