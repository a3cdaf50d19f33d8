/**
 * The `recall` op's search: every exchange of the history, closed chunks
 * read from the store a few at a time and the open one from memory, ranked
 * by BM25 on the query's words; the best few come back with their message
 * number, sender and date, the text cut around the first word found.
 */
import type { PowersRef } from '../daemon/guest-powers.js';
import type { ExchangeRecord } from './exchange-record.js';
import { readChunk, type ClosedChunk } from './history-chunks.js';
import { makeBm25 } from './rank-bm25.js';
import { queryWords, wordsOf } from './search-words.js';

/** Exchanges a search returns: enough to choose from, few enough to read. */
const RECALL_LIMIT = 5;
// Chunks read at once: round trips overlap without holding much at a time.
const READ_AT_ONCE = 16;
// Characters of each side of an exchange shown; a longer one is cut around the first match.
const EXCERPT_CHARS = 600;

interface RecalledExchange {
  messageNumber?: number;
  from?: string;
  date?: string;
  /** What came in (the notice's own `Message #N from …:` left off). */
  message: string;
  /** What the agent did. */
  did: string;
}

export interface RecallResult {
  /** Exchanges searched. */
  searched: number;
  found: RecalledExchange[];
  /** Chunks that could not be read (left out). */
  unreadable?: number;
}

const NOTICE_HEAD = /^Message #\d+ from [^:]*: /;

/** At most EXCERPT_CHARS of `text`, around the first of `terms` it holds. */
const excerpt = (text: string, terms: readonly string[]): string => {
  if (text.length <= EXCERPT_CHARS) return text;
  const lower = text.toLowerCase();
  const at = Math.min(
    ...terms.map(term => lower.indexOf(term)).filter(index => index >= 0),
    Number.MAX_SAFE_INTEGER,
  );
  const start = at === Number.MAX_SAFE_INTEGER ? 0 : Math.max(0, at - EXCERPT_CHARS / 3);
  const end = Math.min(text.length, start + EXCERPT_CHARS);
  return `${start > 0 ? '…' : ''}${text.slice(start, end)}${end < text.length ? '…' : ''}`;
};

const shown = (record: ExchangeRecord, terms: readonly string[]): RecalledExchange => ({
  ...(record.n === undefined ? {} : { messageNumber: record.n }),
  ...(record.from === undefined ? {} : { from: record.from }),
  // To the minute: enough to tell when, without seconds that only cost tokens.
  ...(record.at === undefined
    ? {}
    : { date: `${new Date(record.at).toISOString().slice(0, 16)}Z` }),
  message: excerpt(record.in.replace(NOTICE_HEAD, ''), terms),
  did: excerpt(record.out, terms),
});

export const searchHistory = async (options: {
  powers: PowersRef;
  closed: readonly ClosedChunk[];
  open: readonly ExchangeRecord[];
  query: string;
}): Promise<RecallResult> => {
  const { powers, closed, open, query } = options;
  const terms = queryWords(query);
  if (terms.length === 0)
    throw new Error('query has no words to look for: give a few, e.g. "vault code"');
  const ranking = makeBm25<ExchangeRecord>(terms);
  const see = (records: readonly ExchangeRecord[]) => {
    for (const record of records) ranking.see(wordsOf(`${record.in}\n${record.out}`), record);
  };
  let unreadable = 0;
  for (let start = 0; start < closed.length; start += READ_AT_ONCE) {
    // eslint-disable-next-line no-await-in-loop -- a few chunks at a time, oldest first
    const chunks = await Promise.all(
      closed
        .slice(start, start + READ_AT_ONCE)
        .map(chunk => readChunk(powers, chunk.name).catch(() => undefined)),
    );
    for (const chunk of chunks) {
      if (chunk?.kind === 'exchanges') see(chunk.exchanges);
      else unreadable += 1;
    }
  }
  see(open);
  const found = ranking.top(RECALL_LIMIT).map(({ ref }) => shown(ref, terms));
  return harden({
    searched: ranking.documents(),
    found,
    ...(unreadable > 0 ? { unreadable } : {}),
  });
};
harden(searchHistory);
