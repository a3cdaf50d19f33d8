/**
 * The holds' told marks as the store keeps them: since version 9 one list,
 * `holds` (../lifecycle/holds.ts). Versions 4–8 kept them in two places, the
 * quota's `toldToWait` (keys of messages whose sender was told when they
 * would be served) and each sender record's `held` and `told` (the HOST told
 * of that sender's hold); a memory of those versions loads with both moved
 * into the one list and the records without them: nothing is lost. A mark
 * that does not read is left out, and counted for the log.
 */
import { holdKey, readToldHolds, type ToldHold } from '../lifecycle/holds.js';
import type { SenderRecord, StoredSenderRecord } from '../peers/sender-ledger.js';

export const readStoredHolds = (
  stored: { version: number; holds?: unknown; toldToWait?: unknown },
  records: StoredSenderRecord[],
): { holds: ToldHold[]; senders: SenderRecord[]; lost: number } => {
  // The records without the fields version 9 keeps in the list.
  const senders = records.map(({ held: _held, told: _told, ...record }) => record);
  if (stored.version >= 9) return { ...readToldHolds(stored.holds), senders };
  const toldToWait = Array.isArray(stored.toldToWait) ? (stored.toldToWait as unknown[]) : [];
  const messages = toldToWait
    .filter((key): key is string => typeof key === 'string')
    .map(key => ({ key: holdKey.message(key), why: 'quota' }));
  // A hold the HOST was not told of has no mark: the next message from that sender is held and
  // told. Told of no hold (`held` absent) is damaged: it does not read, and is counted.
  const held = records.flatMap(record =>
    record.told === true ? [{ key: holdKey.sender(record.key), why: record.held }] : [],
  );
  // Read as a version 9 list would be: a key marked twice is marked once.
  const { holds, lost } = readToldHolds([...held, ...messages]);
  return { holds, senders, lost: lost + toldToWait.length - messages.length };
};
harden(readStoredHolds);
