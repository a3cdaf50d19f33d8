/**
 * A prompt cache as the services keep one, so the doubles can report cached
 * input tokens the way the real servers do. A request is seen as a list of
 * segments in the order the service reads them (tools, system, messages);
 * a prefix is remembered by the hash of its segments. OpenAI and llama.cpp
 * cache every prefix automatically; Anthropic caches only the prefixes that
 * end at a `cache_control` breakpoint, and reads a hit by looking back from
 * each breakpoint at most 20 segments.
 */
import { createHash } from 'node:crypto';
import { estimateTokens } from './wire-dialect.js';

/** How many segments Anthropic looks back from a breakpoint for an earlier cache entry. */
const ANTHROPIC_LOOKBACK = 20;

interface PromptCacheReading {
  /** Estimated tokens of the whole prompt. */
  totalTokens: number;
  /** Tokens served from the cache. */
  cachedTokens: number;
  /** Tokens written to the cache by this request (up to its last breakpoint, minus what was read). */
  writtenTokens: number;
}

export interface PromptCache {
  /**
   * Reads a request: `breakpoints` are the segment counts after which a
   * prefix is cached ('every' for automatic caching).
   */
  read(segments: readonly string[], breakpoints: readonly number[] | 'every'): PromptCacheReading;
  /** Forgets every prefix, as a service's eviction would; returns how many it held. */
  clear(): number;
}

/** Prefixes kept: the services evict the least recently used too, and a long bench run must not grow the double. */
export const PROMPT_CACHE_ENTRIES = 4096;
harden(PROMPT_CACHE_ENTRIES);

export const makePromptCache = (): PromptCache => {
  // Insertion order is use order: a prefix read or written moves to the end, the first is the oldest.
  const stored = new Set<string>();
  const use = (hash: string) => {
    stored.delete(hash);
    stored.add(hash);
    if (stored.size > PROMPT_CACHE_ENTRIES) stored.delete(stored.values().next().value as string);
  };
  return {
    read(segments, breakpoints) {
      // hashes[k] names the prefix of the first k segments; tokens[k] is its size.
      const hashes: string[] = [''];
      const tokens: number[] = [0];
      for (const segment of segments) {
        hashes.push(
          createHash('sha256')
            .update(hashes[hashes.length - 1] ?? '')
            .update('\u0000')
            .update(segment)
            .digest('hex'),
        );
        tokens.push((tokens[tokens.length - 1] ?? 0) + estimateTokens(segment));
      }
      const ends =
        breakpoints === 'every'
          ? segments.map((_, index) => index + 1)
          : [...breakpoints].sort((a, b) => a - b);
      let hit = 0;
      for (const end of ends) {
        const from = breakpoints === 'every' ? end : Math.max(1, end - ANTHROPIC_LOOKBACK);
        for (let k = end; k >= from; k -= 1) {
          if (stored.has(hashes[k] ?? '')) {
            hit = Math.max(hit, k);
            break;
          }
        }
      }
      const lastEnd = ends[ends.length - 1] ?? 0;
      if (hit > 0) use(hashes[hit] ?? '');
      for (const end of ends) use(hashes[end] ?? '');
      const totalTokens = tokens[segments.length] ?? 0;
      const cachedTokens = tokens[hit] ?? 0;
      return {
        totalTokens,
        cachedTokens,
        writtenTokens: Math.max(0, (tokens[lastEnd] ?? 0) - cachedTokens),
      };
    },
    clear() {
      const held = stored.size;
      stored.clear();
      return held;
    },
  };
};
harden(makePromptCache);
