/**
 * The `recall` op's search (src/recall/search-history.ts, behaviour 3.11 and
 * 9.4) on chunks given directly: what an exchange shows (cut around the
 * first word found, its number and sender only when it has them), ties the
 * newer first across chunks, a chunk whose read fails left out and counted,
 * the time bound to the millisecond and the chunks it left, both bounds said
 * at once, and a query with no words refused. The archive's side is in
 * recall-history.test.ts and recall-ranking.test.ts.
 */
import { HISTORY_DIRECTORY } from '../src/daemon/own-names.js';
import { describe, expect, test } from 'vitest';
import type { PowersRef } from '../src/daemon/guest-powers.js';
import type { ExchangeRecord } from '../src/recall/exchange-record.js';
import { closedChunkName, serializeChunk, type ClosedChunk } from '../src/recall/history-chunks.js';
import { QUERY_WORDS_MAX, SEARCH_MS, searchHistory } from '../src/recall/search-history.js';

/** Closed chunks of these exchanges (oldest first), held by powers whose lookup reads them; `failing` names do not read. */
const store = (chunks: ExchangeRecord[][], failing: number[] = []) => {
  const stored = new Map<string, string>();
  const closed: ClosedChunk[] = chunks.map((exchanges, index) => {
    const text = serializeChunk(exchanges);
    const name = closedChunkName(index + 1, text.length);
    stored.set(name, text);
    return { seq: index + 1, bytes: text.length, name };
  });
  const powers = harden({
    lookup: async ([directory, name]: string[]) => {
      if (directory !== HISTORY_DIRECTORY) throw Error(`no ${directory}`);
      if (failing.some(seq => closed[seq - 1]!.name === name)) throw Error('daemon busy');
      return stored.get(name!);
    },
  }) as unknown as PowersRef;
  return { powers, closed };
};

const search = (
  query: string,
  options: {
    open?: ExchangeRecord[];
    chunks?: ExchangeRecord[][];
    failing?: number[];
    from?: string;
    now?: () => number;
  } = {},
) => {
  const { powers, closed } = store(options.chunks ?? [], options.failing);
  return searchHistory({
    powers,
    closed,
    open: options.open ?? [],
    query,
    from: options.from,
    now: options.now ?? (() => 0),
  });
};

/** A clock reading these times in turn, then the last for ever. */
const readings = (...times: number[]) => {
  let next = 0;
  return () => {
    next += 1;
    return times[Math.min(next - 1, times.length - 1)]!;
  };
};

const filler = (length: number) => 'x'.repeat(length);

describe('what a found exchange shows', () => {
  test('its number, sender and minute when it has them, and no such field when it has not', async () => {
    const result = await search('vault', {
      open: [
        {
          n: 4,
          from: 'bob',
          at: Date.UTC(2026, 10, 28, 9, 30, 45),
          in: 'Message #4 from bob: the vault',
          out: 'noted',
        },
        { in: 'Wake-up: check the vault', out: 'checked' },
      ],
    });
    expect(result).toStrictEqual({
      searched: 2,
      found: [
        // The shorter first.
        { message: 'Wake-up: check the vault', did: 'checked' },
        {
          messageNumber: 4,
          from: 'bob',
          date: '2026-11-28T09:30Z',
          message: 'the vault',
          did: 'noted',
        },
      ],
    });
  });

  test('only a notice’s own head is taken off, never the same words further in', async () => {
    const result = await search('vault', {
      open: [{ in: 'Note: Message #5 from bob: the vault', out: 'ok' }],
    });
    expect(result.found[0]!.message).toBe('Note: Message #5 from bob: the vault');
  });

  test('a side of exactly 600 characters is shown whole, wherever the word is', async () => {
    const text = `${filler(500)} vault ${filler(600 - 507)}`;
    expect(text).toHaveLength(600);
    const result = await search('vault', { open: [{ in: text, out: 'ok' }] });
    expect(result.found[0]!.message).toBe(text);
  });

  test('a longer side is cut to 600 characters from 200 before the first word found, a word it lacks taken for none', async () => {
    const text = `${filler(700)} vault ${filler(1000)}`;
    const result = await search('zebra vault', { open: [{ in: text, out: 'ok' }] });
    const at = text.indexOf('vault');
    expect(result.found[0]!.message).toBe(`…${text.slice(at - 200, at + 400)}…`);
  });

  test('a word at its very start counts as found there', async () => {
    const text = `vault ${filler(700)} code ${filler(1000)}`;
    const result = await search('code vault', { open: [{ in: text, out: 'ok' }] });
    expect(result.found[0]!.message).toBe(`${text.slice(0, 600)}…`);
  });

  test('a cut that reaches the end has no mark after it', async () => {
    const text = `${filler(900)} vault`;
    const result = await search('vault', { open: [{ in: text, out: 'ok' }] });
    expect(result.found[0]!.message).toBe(`…${text.slice(text.indexOf('vault') - 200)}`);
  });
});

describe('how a search goes', () => {
  test('equal exchanges: the newer first, across the open chunk and closed ones', async () => {
    const same = (n: number): ExchangeRecord => ({ n, in: 'the vault', out: 'ok' });
    const result = await search('vault', {
      chunks: [[same(1)], [same(2)], [same(3)]],
      open: [same(4)],
    });
    expect(result.found.map(found => found.messageNumber)).toEqual([4, 3, 2, 1]);
  });

  test('a chunk whose read fails is left out and counted; none failing, nothing is said', async () => {
    const chunks = [[{ n: 1, in: 'the vault', out: 'ok' }], [{ n: 2, in: 'the vault', out: 'ok' }]];
    const failed = await search('vault', { chunks, failing: [1] });
    expect(failed).toStrictEqual({
      searched: 1,
      found: [{ messageNumber: 2, message: 'the vault', did: 'ok' }],
      unreadable: 1,
    });
    expect(Object.keys(await search('vault', { chunks }))).toEqual(['searched', 'found']);
  });

  test('a query with no words to look for is refused', async () => {
    await expect(search('?! …', { open: [{ in: 'the vault', out: 'ok' }] })).rejects.toThrow(
      'query has no words to look for: give a few, e.g. "vault code"',
    );
  });
});

describe('the time bound', () => {
  const chunks = (count: number) =>
    Array.from({ length: count }, (_, index) => [{ n: index + 1, in: 'the vault', out: 'ok' }]);

  test(`reading goes on at exactly ${SEARCH_MS} ms, and nothing is said when all was read in time`, async () => {
    const result = await search('vault', {
      chunks: chunks(2),
      now: readings(0, SEARCH_MS, SEARCH_MS + 1),
    });
    expect(result.searched).toBe(2);
    expect(result.cut).toBeUndefined();
  });

  test('sixteen chunks are read at once: all read, nothing is said even when the time is then past', async () => {
    const result = await search('vault', {
      chunks: chunks(16),
      now: readings(0, 0, SEARCH_MS + 1),
    });
    expect(result.searched).toBe(16);
    expect(result.cut).toBeUndefined();
  });

  test('past it, the chunks not read are counted: one in the singular', async () => {
    // 17 chunks: the 16 newest are read at once, then the bound stops the last.
    const result = await search('vault', {
      chunks: chunks(17),
      now: readings(0, 0, SEARCH_MS + 1),
    });
    expect(result.searched).toBe(16);
    expect(result.cut).toBe(
      `the search stopped after ${SEARCH_MS / 1000} s: the 1 oldest chunk of the history were not searched`,
    );
    expect(result.found.map(found => found.messageNumber)).toEqual([17, 16, 15, 14, 13]);
  });

  test('both bounds are said, one after the other', async () => {
    const words = Array.from({ length: QUERY_WORDS_MAX + 3 }, (_, index) => `word${index}`);
    const result = await search(`vault ${words.join(' ')}`, {
      chunks: chunks(20),
      now: readings(0, 0, SEARCH_MS + 1),
    });
    expect(result.cut).toBe(
      `only the first ${QUERY_WORDS_MAX} of the query's ${QUERY_WORDS_MAX + 4} distinct words were looked for; ` +
        `the search stopped after ${SEARCH_MS / 1000} s: the 4 oldest chunks of the history were not searched`,
    );
  });
});
