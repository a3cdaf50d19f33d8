/**
 * The Anthropic back end (`@anthropic-ai/sdk`, POST {LAL_HOST}/v1/messages,
 * streamed as events and collected by ./anthropic-stream.ts; a server that
 * answers the whole message as JSON instead is read as before). Retries are
 * the SDK's own (checked in @anthropic-ai/sdk 1.12.0 src/client.ts: 408/409/429/5xx and connection errors and timeouts,
 * `maxRetries` times, 0.5 s doubling to 8 s with jitter unless the server
 * sends retry-after-ms or Retry-After; its sleep listens to the signal).
 * LAL_AUTH_TOKEN is the SDK's apiKey (1.12.0 sends it as a Bearer token). The
 * SDK's timeout ends when the headers arrive; a stream that stalls after them
 * is caught by ./stall-watch.ts.
 * The SDK is imported on first use, keeping the caplet's start light.
 */
import type Anthropic from '@anthropic-ai/sdk';
import { DEFAULT_ANTHROPIC_MAX_TOKENS } from './config.js';
import type { ProviderConfig } from './config.js';
import { fromAnthropicMessage, toAnthropicRequest, toAnthropicTools } from './convert-anthropic.js';
import { withCacheBreakpoints } from './anthropic-cache.js';
import { makeAnthropicStreamCollector } from './anthropic-stream.js';
import type { ProviderOptions } from './provider-options.js';
import { collectStream, lazySdk, makeProviderShell, sdkClientOptions } from './provider-shell.js';
import { keepLastMessages } from './trim-history.js';
import {
  type ChatMessage,
  type ChatOptions,
  type ChatResult,
  type Provider,
  type ToolSchema,
} from './types.js';

const loadSdk = lazySdk(() => import('@anthropic-ai/sdk'));

export const makeAnthropicProvider = (
  config: ProviderConfig,
  options: ProviderOptions = {},
): Provider => {
  const shell = makeProviderShell('Anthropic', config, options);
  let client: Anthropic | undefined;

  const clientFrom = (AnthropicClient: typeof Anthropic): Anthropic =>
    (client ??= new AnthropicClient({
      ...sdkClientOptions(shell, config, options),
      // Given explicitly, so the SDK reads no ANTHROPIC_* credential of the process.
      apiKey: config.authToken ?? null,
      openTelemetry: false,
    }));

  /** The whole message, read from its event stream (or from the JSON a server sent instead). */
  const streamMessage = (
    module: typeof import('@anthropic-ai/sdk'),
    body: Anthropic.Messages.MessageCreateParamsStreaming,
    { signal, onText }: ChatOptions,
  ): Promise<Anthropic.Messages.Message | undefined> => {
    const collector = makeAnthropicStreamCollector(onText);
    return collectStream<
      Anthropic.Messages.RawMessageStreamEvent,
      Anthropic.Messages.Message | undefined
    >(
      shell,
      module,
      signal,
      callSignal =>
        clientFrom(module.default)
          .messages.create(body, callSignal ? { signal: callSignal } : {})
          .withResponse(),
      collector,
    );
  };

  const chat = async (
    messages: readonly ChatMessage[],
    tools: readonly ToolSchema[],
    chatOptions: ChatOptions = {},
  ): Promise<ChatResult> => {
    const { signal } = chatOptions;
    const module = await loadSdk(signal);
    const { system, messages: wireMessages } = toAnthropicRequest(
      keepLastMessages(messages, config.maxMessages),
    );
    const body: Anthropic.Messages.MessageCreateParamsStreaming = {
      model: config.model,
      max_tokens: config.maxTokens ?? DEFAULT_ANTHROPIC_MAX_TOKENS,
      ...withCacheBreakpoints({ system, messages: wireMessages, tools: toAnthropicTools(tools) }),
      stream: true,
    };
    const reply = await streamMessage(module, body, chatOptions);
    // An Anthropic-compatible server may answer in another API's shape, or with nothing at all.
    if (
      reply === null ||
      typeof reply !== 'object' ||
      !Array.isArray((reply as { content?: unknown }).content)
    ) {
      throw shell.wrongShape(reply);
    }
    const message = fromAnthropicMessage(reply);
    // Cut by max_tokens, or by the end of the context window: the last tool_use may be incomplete.
    const cut =
      reply.stop_reason === 'max_tokens' || reply.stop_reason === 'model_context_window_exceeded'
        ? ({ truncated: true } as const)
        : {};
    const usage = reply.usage;
    if (!usage) return { message, ...cut };
    // input_tokens excludes cached input; the prompt's size is the sum.
    const inputTokens =
      usage.input_tokens +
      (usage.cache_creation_input_tokens ?? 0) +
      (usage.cache_read_input_tokens ?? 0);
    return {
      message,
      ...cut,
      usage: {
        inputTokens,
        outputTokens: usage.output_tokens,
        cachedInputTokens: usage.cache_read_input_tokens ?? 0,
      },
    };
  };

  return harden({ kind: 'anthropic', model: config.model, chat });
};
harden(makeAnthropicProvider);
