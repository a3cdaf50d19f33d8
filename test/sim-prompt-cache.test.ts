/**
 * The model server double's prompt cache keeps a bounded number of
 * prefixes, least recently used out, as the services do: a long bench
 * conversation must not grow the double (issue 11, item 12). The memory
 * bench empties it before each heap reading, so the double's bookkeeping is
 * not counted as the agent's (docs/benchmark.md, figure 5).
 */
import { describe, expect, test } from 'vitest';
import { createProvider } from '../providers/create-provider.js';
import type { ChatMessage } from '../providers/types.js';
import { scriptedReplies, startModelServer } from '../sim/model-server/index.js';
import { makePromptCache, PROMPT_CACHE_ENTRIES } from '../sim/model-server/prompt-cache.js';

describe('the double’s prompt cache is bounded', () => {
  test('after more distinct prompts than it keeps, the oldest misses, a recently used one still hits', () => {
    const cache = makePromptCache();
    const prompt = (index: number) => [
      `system prompt`,
      `message number ${index} with some words in it`,
    ];
    cache.read(prompt(0), 'every');
    for (let index = 1; index <= PROMPT_CACHE_ENTRIES; index += 1) {
      cache.read(prompt(index), 'every');
      // Kept in use: the shared system prefix is read by every request.
    }
    const oldest = cache.read(prompt(0), 'every');
    const systemOnly = cache.read(['system prompt'], 'every');
    expect(oldest.cachedTokens).toBe(systemOnly.totalTokens);
    const recent = cache.read(prompt(PROMPT_CACHE_ENTRIES), 'every');
    expect(recent.cachedTokens).toBe(recent.totalTokens);
  });
});

describe('the double’s prompt cache can be emptied', () => {
  test('forgetPromptCache() says how many prefixes it held; the same request read again reads nothing from the cache', async () => {
    const server = await startModelServer({
      protocol: 'openai',
      reply: scriptedReplies([{ text: 'one' }, { text: 'two' }, { text: 'three' }]),
    });
    try {
      const provider = createProvider({
        LAL_HOST: server.url,
        LAL_PROVIDER: 'openai',
        LAL_AUTH_TOKEN: 'sk-test-forget-cache',
        LAL_MODEL: 'double-model',
      });
      const messages: ChatMessage[] = [
        { role: 'system', content: `You are Lal. ${'Stable instructions. '.repeat(40)}` },
        { role: 'user', content: '#3 from HOST: "ping"' },
      ];
      const cached = await provider.chat(messages, []);
      expect((await provider.chat(messages, [])).usage?.cachedInputTokens).toBeGreaterThan(0);
      // One prefix per message end ('every', as OpenAI and llama.cpp cache): system, then the user's.
      expect(server.forgetPromptCache()).toBe(2);
      expect((await provider.chat(messages, [])).usage?.cachedInputTokens).toBe(0);
      expect(server.forgetPromptCache()).toBe(2);
      expect(server.forgetPromptCache()).toBe(0);
      expect(cached.usage?.cachedInputTokens).toBe(0);
    } finally {
      await server.close();
    }
  });
});
