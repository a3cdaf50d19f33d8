/**
 * The whole conversation, kept in the guest's store to be searched (the
 * `mail` tool's `recall` op): every finished turn is added as one exchange
 * to the open chunk, which the memory holds and writes after each piece of
 * work (memory version 11: one write a ping, not two); a full chunk is
 * written once under its closed name and never again, so the bytes a turn
 * writes do not grow with the conversation. Beyond `LAL_HISTORY_MB` the
 * oldest chunks go, each drop logged. At load, version 10's open chunk in
 * the directory is closed as it stands, a chunk written just before a stop
 * (the stored memory still holding its exchanges) is told apart, and a
 * store with no history yet has its digest and turns made into the first
 * chunk; forget() empties it.
 *
 * Only the serving loop calls it (add and save between turns, search during
 * a turn, forget as a piece of work), one thing at a time.
 */
import { HISTORY_DIRECTORY } from '../daemon/own-names.js';
import { E } from '@endo/far';
import { describeError } from '../../providers/describe-error.js';
import type { Clock } from '../lifecycle/clock.js';
import type { PowersRef } from '../daemon/guest-powers.js';
import type { Conversation, Turn } from '../history/conversation.js';
import type { Log } from '../log/log.js';
import type { Origin } from '../mail/origin.js';
import { isCollectedFormula, readable } from '../agent-tools/tools-directory.js';
import { recordOfTurn, recordsOfConversation, type ExchangeRecord } from './exchange-record.js';
import {
  closedChunkName,
  closeStoredOpenChunk,
  listChunks,
  OPEN_CHUNK,
  parseChunk,
  clearChunks,
  readChunk,
  removeChunk,
  serializeChunk,
  utf8Bytes,
  writeClosedChunk,
  type ClosedChunk,
  type OpenChunk,
} from './history-chunks.js';
import { searchHistory, type RecallResult } from './search-history.js';

/** A chunk is closed once it holds this many bytes: what one turn writes at most, with its last record. */
export const CHUNK_BYTES = 8 * 1024;
harden(CHUNK_BYTES);
const MB = 1024 * 1024;

export interface HistoryArchive {
  /** Adds a finished turn (a channel's, when `channel` names it) to the open chunk, which the memory's next write carries. */
  add(turn: Turn, origin: Origin | undefined, channel?: string): void;
  /** Before the memory's write: a full open chunk is written under its closed name, the oldest dropped beyond the bound. */
  save(): Promise<void>;
  /** Forgets the whole history (forget()); says how many chunks went. */
  forget(): Promise<number>;
  /** The exchanges that best match the query's words: only `from`'s when given (a sender's thread), else all. */
  search(query: string, from?: string): Promise<RecallResult>;
  /** For help(). */
  describe(): string[];
}

const day = (at: number) => new Date(at).toISOString().slice(0, 10);

/** What a dropped chunk held, for the log: how many exchanges, which messages, which days. */
const describeSpan = (exchanges: readonly ExchangeRecord[]): string => {
  const numbers = exchanges.flatMap(record => (record.n === undefined ? [] : [record.n]));
  const times = exchanges.flatMap(record => (record.at === undefined ? [] : [record.at]));
  return [
    `${exchanges.length} exchange${exchanges.length === 1 ? '' : 's'}`,
    ...(numbers.length > 0 ? [`messages #${numbers[0]}–#${numbers.at(-1)}`] : []),
    ...(times.length > 0 ? [`${day(times[0]!)} to ${day(times.at(-1)!)}`] : []),
  ].join(', ');
};

interface ArchiveSetup {
  powers: PowersRef;
  log: Log;
  redact: (text: string) => string;
  clock: Clock;
  /** LAL_HISTORY_MB. */
  maxMb: number;
}

/** Where the open chunk is kept: the memory (src/memory/agent-memory.ts), which writes it. */
export interface OpenChunkHolder {
  /** Absent in a memory of version 10 or older (or a fresh one): made at load. */
  openChunk?: OpenChunk;
}

interface Loaded {
  present: boolean;
  closed: ClosedChunk[];
}

const nextSeqAfter = (closed: readonly ClosedChunk[]) => (closed.at(-1)?.seq ?? 0) + 1;

/**
 * The closed chunks in the store, or nothing when there is no (readable) history yet. Version 10's
 * open chunk is closed as it stands under the next number (a move: if the agent stops before its
 * memory is written again, the chunk is there once, and the next load finds no `open`); one that does
 * not read is kept the same way, counted, and left out of searches.
 */
const readStored = async ({ powers, log }: ArchiveSetup): Promise<Loaded> => {
  const none: Loaded = { present: false, closed: [] };
  if (!(await E(powers).has(HISTORY_DIRECTORY))) return none;
  if (!(await readable(powers, HISTORY_DIRECTORY))) {
    log(`${HISTORY_DIRECTORY}/ names a directory the daemon collected; the history starts again`);
    return none;
  }
  const { closed, open } = await listChunks(powers);
  if (!open) return { present: true, closed };
  const stored: unknown = await E(powers).lookup([HISTORY_DIRECTORY, OPEN_CHUNK]);
  const chunk = parseChunk(stored);
  if (chunk.kind === 'exchanges' && chunk.exchanges.length === 0) {
    await removeChunk(powers, OPEN_CHUNK);
    return { present: true, closed };
  }
  const seq = nextSeqAfter(closed);
  const bytes = typeof stored === 'string' ? utf8Bytes(stored) : 0;
  const name = closedChunkName(seq, bytes);
  await closeStoredOpenChunk(powers, name);
  log(
    chunk.kind === 'exchanges'
      ? `history: the open chunk of version 10 (${chunk.exchanges.length} exchanges) closed as ${name}`
      : `${HISTORY_DIRECTORY}/${OPEN_CHUNK} did not read (${chunk.why}); kept as ${name}`,
  );
  return { present: true, closed: [...closed, { seq, bytes, name }] };
};

const sameRecord = (a: ExchangeRecord, b: ExchangeRecord | undefined) =>
  b !== undefined && JSON.stringify(a) === JSON.stringify(b);

/**
 * The open chunk the memory holds, checked against the closed chunks: when one was written under
 * its number and begins with its exchanges, the agent stopped after writing that chunk and before
 * its memory said so, and they are not kept twice; a number already taken otherwise moves on, the
 * exchanges kept (also when that chunk cannot be read: kept twice rather than lost).
 */
const reconcile = async (
  { powers, log }: ArchiveSetup,
  kept: OpenChunk,
  closed: readonly ClosedChunk[],
): Promise<OpenChunk> => {
  const next = nextSeqAfter(closed);
  if (kept.seq >= next) return kept;
  const written = closed.find(chunk => chunk.seq === kept.seq);
  if (written !== undefined) {
    const held = await readChunk(powers, written.name).catch(() => undefined);
    if (
      held?.kind === 'exchanges' &&
      kept.exchanges.every((record, index) => sameRecord(record, held.exchanges[index]))
    ) {
      if (kept.exchanges.length > 0)
        log(
          `history: ${written.name} was written before the memory said so (a stop between the two); its ${kept.exchanges.length} exchanges are kept once`,
        );
      return { seq: next, exchanges: [] };
    }
  }
  return { seq: next, exchanges: kept.exchanges };
};

export const loadHistoryArchive = async (
  setup: ArchiveSetup,
  /** The memory, which holds the open chunk and writes it. */
  holder: OpenChunkHolder,
  /** The conversation a store without a history yet had: made into the first chunk. */
  conversation: Conversation,
): Promise<HistoryArchive> => {
  const { powers, log, redact, clock } = setup;
  const maxBytes = setup.maxMb * MB;
  let loaded: Loaded;
  try {
    loaded = await readStored(setup);
  } catch (error) {
    log(`could not read ${HISTORY_DIRECTORY}/ (${describeError(error)}); the history starts again`);
    loaded = { present: false, closed: [] };
  }
  let { present, closed } = loaded;
  const fromBefore = holder.openChunk === undefined;
  let open = await reconcile(
    setup,
    holder.openChunk ?? { seq: nextSeqAfter(closed), exchanges: [] },
    closed,
  );
  holder.openChunk = open;
  // The open chunk's size as written (serializeChunk), kept by each exchange appended rather than
  // by writing the whole chunk again after every turn: the text is made when the chunk closes.
  let openBytes = utf8Bytes(serializeChunk(open.exchanges));
  let dropped = 0;
  const totalBytes = () => closed.reduce((sum, chunk) => sum + chunk.bytes, 0) + openBytes;

  const setOpen = (chunk: OpenChunk) => {
    open = chunk;
    holder.openChunk = chunk;
    openBytes = utf8Bytes(serializeChunk(chunk.exchanges));
  };

  const append = (records: readonly ExchangeRecord[]) => {
    const before = open.exchanges.length;
    open = { seq: open.seq, exchanges: [...open.exchanges, ...records] };
    holder.openChunk = open;
    // Each record's JSON, and a comma before each but the chunk's first.
    for (const [index, record] of records.entries())
      openBytes += utf8Bytes(JSON.stringify(record)) + (before + index === 0 ? 0 : 1);
  };

  const dropOldest = async () => {
    while (totalBytes() > maxBytes && closed.length > 0) {
      const oldest = closed[0]!;
      // eslint-disable-next-line no-await-in-loop -- read before it goes, to say what went
      const held = await readChunk(powers, oldest.name).catch(() => undefined);
      // eslint-disable-next-line no-await-in-loop
      await removeChunk(powers, oldest.name);
      closed = closed.slice(1);
      dropped += 1;
      const what =
        held?.kind === 'exchanges' ? describeSpan(held.exchanges) : `chunk ${oldest.name}`;
      log(
        `history: dropped its oldest chunk (${what}; ${oldest.bytes} bytes) to stay within LAL_HISTORY_MB=${setup.maxMb}`,
      );
    }
  };

  // Nothing to do unless the open chunk is full or the history over its bound: no daemon call then.
  const save = async () => {
    try {
      if (openBytes >= CHUNK_BYTES) {
        if (!present) {
          // Known missing (or collected, at f0a46042a: the write below then fails and this runs again).
          await E(powers).makeDirectory(HISTORY_DIRECTORY);
          present = true;
        }
        const chunk: ClosedChunk = {
          seq: open.seq,
          bytes: openBytes,
          name: closedChunkName(open.seq, openBytes),
        };
        // Written once; the memory's write after this says so (a stop between the two: reconcile).
        await writeClosedChunk(powers, chunk.name, serializeChunk(open.exchanges));
        closed = [...closed, chunk];
        setOpen({ seq: open.seq + 1, exchanges: [] });
      }
      await dropOldest();
    } catch (error) {
      // Kept in the memory and tried again at the next save; a directory the daemon collected is made again then.
      if (isCollectedFormula(error)) present = false;
      log(`could not save the history: ${redact(describeError(error))}`);
    }
  };

  // A store of the previous format (no history, no open chunk in its memory): its conversation becomes the first chunk.
  if (fromBefore && !present) {
    const earlier = recordsOfConversation(conversation, redact);
    if (earlier.length > 0) {
      append(earlier);
      await save();
      log(`history: ${earlier.length} exchanges of the stored conversation can now be searched`);
    }
  }

  return {
    add(turn, origin, channel) {
      append([recordOfTurn(turn, origin, clock.now(), redact, channel)]);
    },
    save,
    async forget() {
      const chunks = closed.length + (open.exchanges.length > 0 ? 1 : 0);
      closed = [];
      setOpen({ seq: 1, exchanges: [] });
      if (present) {
        try {
          // Emptied in place: a new directory over the name would have the daemon collect the
          // old one and end the worker that holds it, this agent's (issue 35).
          await clearChunks(powers);
        } catch (error) {
          log(`could not clear ${HISTORY_DIRECTORY}/: ${redact(describeError(error))}`);
        }
      }
      return chunks;
    },
    search: (query, from) =>
      searchHistory({
        powers,
        closed,
        open: open.exchanges,
        query,
        from,
        now: () => clock.now(),
      }),
    describe: () => [
      `${closed.length + 1} chunk${closed.length === 0 ? '' : 's'} (the open one holds ${open.exchanges.length} exchange${open.exchanges.length === 1 ? '' : 's'}), ${(totalBytes() / MB).toFixed(2)} of ${setup.maxMb} MB (LAL_HISTORY_MB); searchable with mail recall`,
      ...(dropped > 0
        ? [`${dropped} oldest chunk${dropped === 1 ? '' : 's'} dropped since start`]
        : []),
    ],
  };
};
harden(loadHistoryArchive);
