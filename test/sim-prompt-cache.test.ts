/**
 * The model server double's prompt cache keeps a bounded number of
 * prefixes, least recently used out, as the services do: a long bench
 * conversation must not grow the double (issue 11, item 12).
 */
import { describe, expect, test } from 'vitest';
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
