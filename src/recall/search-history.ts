/**
 * The `recall` op's search: the exchanges of the history the turn may see
 * (a sender's turn its own, the HOST's all: docs/behaviour.md 9.1), newest
 * first, the open chunk from memory and closed chunks read from the store a
 * few at a time, ranked by BM25 on the query's words; the best few come
 * back with their message number, sender and date, the text cut around the
 * first word found. Bounded (behaviour 9.4): at most QUERY_WORDS_MAX of the
 * query's words are looked for, and reading stops after SEARCH_MS; the
 * result says when either cut it short.
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
/** Distinct words of a query looked for: more than any question needs. */
export const QUERY_WORDS_MAX = 32;
harden(QUERY_WORDS_MAX);
/** Reading older chunks stops after this long (ms); what was read is ranked. */
export const SEARCH_MS = 2_000;
harden(SEARCH_MS);

interface RecalledExchange {
  messageNumber?: number;
  from?: string;
  /** The channel whose turn it was: its members' words, never the HOST's. */
  channel?: string;
  date?: string;
  /** What came in (the notice's own `Message #N from …:` left off). */
  message: string;
  /** What the agent did. */
  did: string;
  /** Where its words stop being the sender's and the agent's own: the first text from elsewhere it read (src/history/word-labels.ts). */
  wordsAfter?: string;
}

export interface RecallResult {
  /** Exchanges searched. */
  searched: number;
  found: RecalledExchange[];
  /** Chunks that could not be read (left out). */
  unreadable?: number;
  /** What bounded the search, when something did: the query's words, the time. */
  cut?: string;
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
  ...(record.ch === undefined ? {} : { channel: record.ch }),
  // To the minute: enough to tell when, without seconds that only cost tokens.
  ...(record.at === undefined
    ? {}
    : { date: `${new Date(record.at).toISOString().slice(0, 16)}Z` }),
  message: excerpt(record.in.replace(NOTICE_HEAD, ''), terms),
  did: excerpt(record.out, terms),
  ...(record.read === undefined ? {} : { wordsAfter: `reading ${record.read}` }),
});

export const searchHistory = async (options: {
  powers: PowersRef;
  closed: readonly ClosedChunk[];
  open: readonly ExchangeRecord[];
  query: string;
  /** The sender whose exchanges alone are searched; every exchange when undefined (the HOST's turn). */
  from?: string | undefined;
  /** The time, for the search's bound. */
  now: () => number;
}): Promise<RecallResult> => {
  const { powers, closed, open, query, from, now } = options;
  const allTerms = queryWords(query);
  if (allTerms.length === 0)
    throw new Error('query has no words to look for: give a few, e.g. "vault code"');
  const terms = allTerms.slice(0, QUERY_WORDS_MAX);
  const cuts =
    allTerms.length > terms.length
      ? [
          `only the first ${QUERY_WORDS_MAX} of the query's ${allTerms.length} distinct words were looked for`,
        ]
      : [];
  const deadline = now() + SEARCH_MS;
  const ranking = makeBm25<ExchangeRecord>(terms, true);
  const see = (records: readonly ExchangeRecord[]) => {
    for (let index = records.length - 1; index >= 0; index -= 1) {
      const record = records[index]!;
      // Another sender's exchange, or a channel's, is not this thread's: never read, never counted.
      if (from !== undefined && (record.from !== from || record.ch !== undefined)) continue;
      ranking.see(wordsOf(`${record.in}\n${record.out}`), record);
    }
  };
  see(open);
  let unreadable = 0;
  const newestFirst = [...closed].reverse();
  for (let start = 0; start < newestFirst.length; start += READ_AT_ONCE) {
    if (now() > deadline) {
      const left = newestFirst.length - start;
      cuts.push(
        `the search stopped after ${SEARCH_MS / 1000} s: the ${left} oldest chunk${left === 1 ? '' : 's'} of the history were not searched`,
      );
      break;
    }
    // eslint-disable-next-line no-await-in-loop -- a few chunks at a time, newest first
    const chunks = await Promise.all(
      newestFirst
        .slice(start, start + READ_AT_ONCE)
        .map(chunk => readChunk(powers, chunk.name).catch(() => undefined)),
    );
    for (const chunk of chunks) {
      if (chunk?.kind === 'exchanges') see(chunk.exchanges);
      else unreadable += 1;
    }
  }
  const found = ranking.top(RECALL_LIMIT).map(({ ref }) => shown(ref, terms));
  return harden({
    searched: ranking.documents(),
    found,
    ...(unreadable > 0 ? { unreadable } : {}),
    ...(cuts.length > 0 ? { cut: cuts.join('; ') } : {}),
  });
};
harden(searchHistory);
