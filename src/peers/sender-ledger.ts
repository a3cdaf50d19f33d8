/**
 * The senders the agent has served, kept in its store (memory version 6):
 * for each, how it was shown, how many turns it had, the turns in a row
 * since the HOST last spoke, and its turns of the last hour by the minute.
 * Whether it is held, and the HOST told, is the holds' told mark
 * (../lifecycle/holds.ts; in the record itself up to version 8). Bounded:
 * the senders served longest ago go first, never one that is held.
 */

const MINUTE_MS = 60_000;
const HOUR_MS = 3_600_000;
/** Senders remembered; the store stays small however many come and go. */
export const SENDERS_KEPT = 64;
harden(SENDERS_KEPT);

export interface SenderRecord {
  /** The sender's short key (senderKey of its id). */
  key: string;
  /** How the sender was last shown (its pet name, or its short id and daemon). */
  name: string;
  /** Turns served for it in all. */
  served: number;
  /** When its last turn was served (ms since the epoch). */
  last: number;
  /** Turns in a row for it since the HOST last spoke (always 0 for the HOST). */
  exchanges: number;
  /** Its turns of the last hour: [minute start, turns]. */
  minutes: [number, number][];
}

/** A record as versions 6–8 stored it: with why it was held and whether the HOST was told (now a told mark). */
export interface StoredSenderRecord extends SenderRecord {
  held?: 'exchanges' | 'hourly';
  told?: boolean;
}

const isPair = (value: unknown): value is [number, number] =>
  Array.isArray(value) &&
  value.length === 2 &&
  value.every(part => typeof part === 'number' && Number.isFinite(part));

const isSenderRecord = (value: unknown): value is StoredSenderRecord => {
  if (value === null || typeof value !== 'object') return false;
  const record = value as Record<string, unknown>;
  return (
    typeof record.key === 'string' &&
    typeof record.name === 'string' &&
    typeof record.served === 'number' &&
    typeof record.last === 'number' &&
    typeof record.exchanges === 'number' &&
    Array.isArray(record.minutes) &&
    record.minutes.every(isPair) &&
    (record.held === undefined || record.held === 'exchanges' || record.held === 'hourly') &&
    (record.told === undefined || typeof record.told === 'boolean')
  );
};

/** The records of a stored memory that read; none when absent (a memory before version 6). */
export const readSenderRecords = (value: unknown): StoredSenderRecord[] =>
  Array.isArray(value) ? value.filter(isSenderRecord) : [];
harden(readSenderRecords);

/**
 * A formula id (`<number>:<node>`) shortened to a key that tells senders
 * apart: 16 hex digits of each part (64 bits of randomness each).
 */
export const senderKey = (id: string): string => {
  const [number = '', node = ''] = id.split(':');
  return `${number.slice(0, 16)}:${node.slice(0, 16)}`;
};
harden(senderKey);

/** Turns in the last hour. */
export const turnsInHour = (record: SenderRecord, now: number): number =>
  record.minutes.reduce((sum, [minute, turns]) => (minute > now - HOUR_MS ? sum + turns : sum), 0);
harden(turnsInHour);

/** When the sender has room for one more turn under `max` an hour. */
export const hourFreesAt = (record: SenderRecord, max: number, now: number): number => {
  const window = record.minutes.filter(([minute]) => minute > now - HOUR_MS);
  let left = window.reduce((sum, [, turns]) => sum + turns, 0);
  let index = 0;
  while (left >= max && index < window.length) {
    left -= window[index]![1];
    index += 1;
  }
  return (window[Math.max(0, index - 1)]?.[0] ?? now) + HOUR_MS;
};
harden(hourFreesAt);

/** Counts one turn at `now`, keeping only the last hour's minutes (at most 61 entries). */
export const countTurn = (record: SenderRecord, now: number): void => {
  const minute = now - (now % MINUTE_MS);
  const latest = record.minutes.at(-1);
  if (latest !== undefined && latest[0] === minute) latest[1] += 1;
  else record.minutes.push([minute, 1]);
  const kept = record.minutes.filter(([start]) => start > now - HOUR_MS);
  record.minutes.splice(0, record.minutes.length, ...kept);
  record.served += 1;
  record.last = now;
};
harden(countTurn);

/** The record for `key`, made when new; the least recently served unheld ones go beyond the bound. */
export const recordFor = (
  records: SenderRecord[],
  key: string,
  name: string,
  held: (key: string) => boolean = () => false,
): SenderRecord => {
  let record = records.find(each => each.key === key);
  if (record === undefined) {
    record = { key, name, served: 0, last: 0, exchanges: 0, minutes: [] };
    records.push(record);
    while (records.length > SENDERS_KEPT) {
      const oldest = records
        .filter(each => !held(each.key) && each !== record)
        .reduce<SenderRecord | undefined>(
          (found, each) => (found === undefined || each.last < found.last ? each : found),
          undefined,
        );
      if (oldest === undefined) break;
      records.splice(records.indexOf(oldest), 1);
    }
  }
  record.name = name;
  return record;
};
harden(recordFor);
