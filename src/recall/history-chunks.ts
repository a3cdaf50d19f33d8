/**
 * How the searchable history lies in the guest's store: a directory
 * `agent-history` beside `agent-memory`, holding the chunk being filled
 * under `open` and each full chunk under `c<seq>-<bytes>`, its sequence
 * number and size in its name, so one `list` at start tells the order and
 * the total size without reading a chunk. A chunk is one JSON string
 * (`{"version": 1, "exchanges": [...]}`): written whole, it costs the
 * connection one copy. Only `open` is rewritten, so a turn writes at most
 * one chunk, however long the conversation.
 */
import { E } from '@endo/far';
import type { PowersRef } from '../daemon/guest-powers.js';
import { isExchangeRecord, type ExchangeRecord } from './exchange-record.js';
import { HISTORY_DIRECTORY } from '../daemon/own-names.js';

export const OPEN_CHUNK = 'open';
harden(OPEN_CHUNK);
/** The chunk format; a chunk of another version is kept and left out of searches. */
const CHUNK_VERSION = 1;

export interface ClosedChunk {
  seq: number;
  bytes: number;
  name: string;
}

const CLOSED = /^c(\d+)-(\d+)$/;

export const closedChunkName = (seq: number, bytes: number): string => `c${seq}-${bytes}`;
harden(closedChunkName);

const parseClosedChunk = (name: string): ClosedChunk | undefined => {
  const found = CLOSED.exec(name);
  return found === null ? undefined : { seq: Number(found[1]), bytes: Number(found[2]), name };
};

/** Bytes of a string as UTF-8, without encoding it. */
export const utf8Bytes = (text: string): number => {
  let bytes = 0;
  for (let index = 0; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    if (code < 0x80) bytes += 1;
    else if (code < 0x800) bytes += 2;
    else if (code >= 0xd800 && code < 0xdc00) {
      // A surrogate pair is one four-byte character.
      bytes += 4;
      index += 1;
    } else bytes += 3;
  }
  return bytes;
};
harden(utf8Bytes);

export const serializeChunk = (exchanges: readonly ExchangeRecord[]): string =>
  JSON.stringify({ version: CHUNK_VERSION, exchanges });
harden(serializeChunk);

export type ReadChunk =
  { kind: 'exchanges'; exchanges: ExchangeRecord[] } | { kind: 'unreadable'; why: string };

/** A stored chunk's exchanges; records that do not read are left out (and counted). */
export const parseChunk = (stored: unknown): ReadChunk & { lost?: number } => {
  let parsed: unknown;
  try {
    parsed = typeof stored === 'string' ? JSON.parse(stored) : undefined;
  } catch {
    parsed = undefined;
  }
  const record = parsed as { version?: unknown; exchanges?: unknown } | undefined;
  if (record === undefined || record === null || typeof record !== 'object')
    return { kind: 'unreadable', why: 'not a JSON chunk' };
  if (record.version !== CHUNK_VERSION)
    return { kind: 'unreadable', why: `chunk version ${JSON.stringify(record.version)}` };
  if (!Array.isArray(record.exchanges)) return { kind: 'unreadable', why: 'no exchanges' };
  const exchanges = record.exchanges.filter(isExchangeRecord);
  return { kind: 'exchanges', exchanges, lost: record.exchanges.length - exchanges.length };
};
harden(parseChunk);

const inDirectory = (name: string) => [HISTORY_DIRECTORY, name];

export const listChunks = async (
  powers: PowersRef,
): Promise<{ closed: ClosedChunk[]; open: boolean; others: string[] }> => {
  const names = await E(powers).list(HISTORY_DIRECTORY);
  const closed: ClosedChunk[] = [];
  const others: string[] = [];
  for (const name of names) {
    const chunk = parseClosedChunk(name);
    if (chunk !== undefined) closed.push(chunk);
    else if (name !== OPEN_CHUNK) others.push(name);
  }
  closed.sort((a, b) => a.seq - b.seq);
  return { closed, open: names.includes(OPEN_CHUNK), others };
};
harden(listChunks);

export const readChunk = async (powers: PowersRef, name: string) =>
  parseChunk(await E(powers).lookup(inDirectory(name)));
harden(readChunk);

export const writeOpenChunk = (powers: PowersRef, text: string): Promise<void> =>
  Promise.resolve(E(powers).storeValue(text, inDirectory(OPEN_CHUNK)));
harden(writeOpenChunk);

/** The open chunk, once full, takes its closed name: a move, no second write. */
export const closeOpenChunk = (powers: PowersRef, name: string): Promise<void> =>
  Promise.resolve(E(powers).move(inDirectory(OPEN_CHUNK), inDirectory(name)));
harden(closeOpenChunk);

/** Removes every name in the history directory, keeping the directory itself. */
export const clearChunks = async (powers: PowersRef): Promise<void> => {
  const names = await E(powers).list(HISTORY_DIRECTORY);
  await Promise.all(names.map(name => E(powers).remove(HISTORY_DIRECTORY, name)));
};
harden(clearChunks);

export const removeChunk = (powers: PowersRef, name: string): Promise<void> =>
  Promise.resolve(E(powers).remove(HISTORY_DIRECTORY, name));
harden(removeChunk);
