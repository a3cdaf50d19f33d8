/**
 * The whole conversation, kept in the guest's store to be searched (the
 * `mail` tool's `recall` op): every finished turn is added as one exchange
 * to the open chunk, which is written with the memory after each piece of
 * work; a full chunk takes its closed name and is never written again, so
 * the bytes a turn writes do not grow with the conversation. Beyond
 * `LAL_HISTORY_MB` the oldest chunks go, each drop logged. A store of the
 * previous format (no history yet) has its digest and turns made into the
 * first chunk; forget() empties it.
 *
 * Only the serving loop calls it (add and save between turns, search during
 * a turn, forget as a piece of work), one thing at a time.
 */
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
  closeOpenChunk,
  HISTORY_DIRECTORY,
  listChunks,
  OPEN_CHUNK,
  parseChunk,
  clearChunks,
  readChunk,
  removeChunk,
  serializeChunk,
  utf8Bytes,
  writeOpenChunk,
  type ClosedChunk,
} from './history-chunks.js';
import { searchHistory, type RecallResult } from './search-history.js';

/** A chunk is closed once it holds this many bytes: what one turn writes at most, with its last record. */
export const CHUNK_BYTES = 8 * 1024;
harden(CHUNK_BYTES);
const MB = 1024 * 1024;

export interface HistoryArchive {
  /** Adds a finished turn (a channel's, when `channel` names it); it reaches the store at the next save. */
  add(turn: Turn, origin: Origin | undefined, channel?: string): void;
  /** Writes the open chunk if it changed, closes it when full, drops the oldest beyond the bound. */
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

interface Loaded {
  present: boolean;
  closed: ClosedChunk[];
  open: ExchangeRecord[];
}

/** The chunks in the store, or nothing when there is no (readable) history yet. */
const readStored = async ({ powers, log }: ArchiveSetup): Promise<Loaded> => {
  const none: Loaded = { present: false, closed: [], open: [] };
  if (!(await E(powers).has(HISTORY_DIRECTORY))) return none;
  if (!(await readable(powers, HISTORY_DIRECTORY))) {
    log(`${HISTORY_DIRECTORY}/ names a directory the daemon collected; the history starts again`);
    return none;
  }
  const { closed, open } = await listChunks(powers);
  if (!open) return { present: true, closed, open: [] };
  const stored: unknown = await E(powers).lookup([HISTORY_DIRECTORY, OPEN_CHUNK]);
  const chunk = parseChunk(stored);
  if (chunk.kind === 'exchanges') return { present: true, closed, open: chunk.exchanges };
  // Kept aside under a closed name, counted toward the bound, never overwritten.
  const aside: ClosedChunk = {
    seq: (closed.at(-1)?.seq ?? 0) + 1,
    bytes: typeof stored === 'string' ? utf8Bytes(stored) : 0,
    name: '',
  };
  aside.name = closedChunkName(aside.seq, aside.bytes);
  await closeOpenChunk(powers, aside.name);
  log(`${HISTORY_DIRECTORY}/${OPEN_CHUNK} did not read (${chunk.why}); kept as ${aside.name}`);
  return { present: true, closed: [...closed, aside], open: [] };
};

export const loadHistoryArchive = async (
  setup: ArchiveSetup,
  conversation: Conversation,
): Promise<HistoryArchive> => {
  const { powers, log, redact, clock } = setup;
  const maxBytes = setup.maxMb * MB;
  let loaded: Loaded;
  try {
    loaded = await readStored(setup);
  } catch (error) {
    log(`could not read ${HISTORY_DIRECTORY}/ (${describeError(error)}); the history starts again`);
    loaded = { present: false, closed: [], open: [] };
  }
  let { present, closed, open } = loaded;
  let openText = serializeChunk(open);
  let openBytes = utf8Bytes(openText);
  let openChanged = false;
  let dropped = 0;
  const nextSeq = () => (closed.at(-1)?.seq ?? 0) + 1;
  const totalBytes = () => closed.reduce((sum, chunk) => sum + chunk.bytes, 0) + openBytes;

  const append = (records: readonly ExchangeRecord[]) => {
    open = [...open, ...records];
    openText = serializeChunk(open);
    openBytes = utf8Bytes(openText);
    openChanged = true;
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

  const save = async () => {
    if (!openChanged) return;
    try {
      if (!present) {
        // Known missing (or collected, at f0a46042a: the write below then fails and this runs again).
        await E(powers).makeDirectory(HISTORY_DIRECTORY);
        present = true;
      }
      await writeOpenChunk(powers, openText);
      openChanged = false;
      if (openBytes >= CHUNK_BYTES) {
        const chunk: ClosedChunk = {
          seq: nextSeq(),
          bytes: openBytes,
          name: closedChunkName(nextSeq(), openBytes),
        };
        await closeOpenChunk(powers, chunk.name);
        closed = [...closed, chunk];
        open = [];
        openText = serializeChunk(open);
        openBytes = utf8Bytes(openText);
      }
      await dropOldest();
    } catch (error) {
      // Kept in memory and written at the next save; a directory the daemon collected is made again then.
      if (isCollectedFormula(error)) present = false;
      log(`could not save the history: ${redact(describeError(error))}`);
    }
  };

  // A store of the previous format: its conversation becomes the first chunk.
  if (!present) {
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
      const chunks = closed.length + (open.length > 0 ? 1 : 0);
      closed = [];
      open = [];
      openText = serializeChunk(open);
      openBytes = utf8Bytes(openText);
      openChanged = false;
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
      searchHistory({ powers, closed, open, query, from, now: () => clock.now() }),
    describe: () => [
      `${closed.length + 1} chunk${closed.length === 0 ? '' : 's'} (the open one holds ${open.length} exchange${open.length === 1 ? '' : 's'}), ${(totalBytes() / MB).toFixed(2)} of ${setup.maxMb} MB (LAL_HISTORY_MB); searchable with mail recall`,
      ...(dropped > 0
        ? [`${dropped} oldest chunk${dropped === 1 ? '' : 's'} dropped since start`]
        : []),
    ],
  };
};
harden(loadHistoryArchive);
