/**
 * How the searchable history lies in the guest's store: a directory
 * `agent-history` beside `agent-memory`, holding each full chunk under
 * `c<seq>-<bytes>`, its sequence number and size in its name, so one `list`
 * at start tells the order and the total size without reading a chunk. A
 * chunk is one JSON string (`{"version": 1, "exchanges": [...]}`): written
 * whole, once, it costs the connection one copy. The chunk being filled is
 * kept in the memory (`OpenChunk`, memory version 11) and written with it,
 * so a turn writes nothing here until its chunk is full; version 10 kept it
 * here under `open`, which is closed as it stands at load.
 */
import { E } from '@endo/far';
import type { PowersRef } from '../daemon/guest-powers.js';
import { isExchangeRecord, type ExchangeRecord } from './exchange-record.js';
import { HISTORY_DIRECTORY } from '../daemon/own-names.js';

/** Where version 10 kept the chunk being filled (closed at load since version 11). */
export const OPEN_CHUNK = 'open';
harden(OPEN_CHUNK);
/** The chunk format; a chunk of another version is kept and left out of searches. */
const CHUNK_VERSION = 1;

/**
 * The chunk being filled, kept in the memory: its exchanges, and the
 * sequence number it will be written under once full. That number is how
 * a chunk written just before a stop, while the stored memory still held
 * its exchanges, is told apart at the next load.
 */
export interface OpenChunk {
  seq: number;
  exchanges: ExchangeRecord[];
}

/** The open chunk as the memory stored it; records that do not read are left out and counted. */
export const readOpenChunk = (value: unknown): { chunk: OpenChunk; lost: number } | undefined => {
  if (value === null || typeof value !== 'object') return undefined;
  const { seq, exchanges } = value as { seq?: unknown; exchanges?: unknown };
  if (typeof seq !== 'number' || !Number.isSafeInteger(seq) || seq < 1) return undefined;
  if (!Array.isArray(exchanges)) return undefined;
  const kept = exchanges.filter(isExchangeRecord);
  return { chunk: { seq, exchanges: kept }, lost: exchanges.length - kept.length };
};
harden(readOpenChunk);

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

/** A full chunk, written once under its closed name. */
export const writeClosedChunk = (powers: PowersRef, name: string, text: string): Promise<void> =>
  Promise.resolve(E(powers).storeValue(text, inDirectory(name)));
harden(writeClosedChunk);

/** Version 10's open chunk takes a closed name as it stands: a move, in one step, nothing written twice. */
export const closeStoredOpenChunk = (powers: PowersRef, name: string): Promise<void> =>
  Promise.resolve(E(powers).move(inDirectory(OPEN_CHUNK), inDirectory(name)));
harden(closeStoredOpenChunk);

/** Removes every name in the history directory, keeping the directory itself. */
export const clearChunks = async (powers: PowersRef): Promise<void> => {
  const names = await E(powers).list(HISTORY_DIRECTORY);
  await Promise.all(names.map(name => E(powers).remove(HISTORY_DIRECTORY, name)));
};
harden(clearChunks);

export const removeChunk = (powers: PowersRef, name: string): Promise<void> =>
  Promise.resolve(E(powers).remove(HISTORY_DIRECTORY, name));
harden(removeChunk);
