/**
 * Prompt caching on OpenAI-compatible servers. The agent keeps its prompt on
 * a stable prefix (system prompt and tools unchanged, history appended); on
 * top of that, OpenAI routes requests that share a `prompt_cache_key` to the
 * same cache, and llama.cpp keeps a slot's evaluated prompt when asked with
 * `cache_prompt` (a body field outside the SDK's types; OpenAI itself rejects
 * unknown fields, so it is not sent there). Servers that know neither field
 * ignore it. The cached part of the prompt comes back as
 * `usage.prompt_tokens_details.cached_tokens` (OpenAI, newer llama.cpp) or
 * `timings.cache_n` (llama.cpp).
 */
import type { ChatMessage } from './types.js';

/** FNV-1a, 32 bits: a short stable key from the system prompt. */
const fnv1a = (text: string): string => {
  let hash = 0x811c9dc5;
  for (let index = 0; index < text.length; index += 1) {
    hash ^= text.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash.toString(16).padStart(8, '0');
};

const isOpenAIItself = (host: string): boolean => /(^|[/.])api\.openai\.com(:|\/|$)/.test(host);

/** The extra body fields that ask the server to cache the prompt. */
export const promptCacheFields = (
  host: string,
  messages: readonly ChatMessage[],
): Record<string, unknown> => {
  const system = messages.find(message => message.role === 'system')?.content ?? '';
  return {
    prompt_cache_key: `lal-fae-${fnv1a(system)}`,
    ...(isOpenAIItself(host) ? {} : { cache_prompt: true }),
  };
};
harden(promptCacheFields);

interface ReportedUsage {
  prompt_tokens_details?: { cached_tokens?: number | null } | null;
}
interface LlamaCppTimings {
  cache_n?: unknown;
  prompt_n?: unknown;
}

/** Cached input tokens as the server reports them; undefined when it does not. */
export const cachedInputTokens = (
  usage: ReportedUsage | undefined,
  timings: LlamaCppTimings | undefined,
): number | undefined => {
  const cached = usage?.prompt_tokens_details?.cached_tokens;
  if (typeof cached === 'number') return cached;
  return typeof timings?.cache_n === 'number' ? timings.cache_n : undefined;
};
harden(cachedInputTokens);
