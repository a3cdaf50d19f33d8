/**
 * Conversations between agents end. A sender that is not the HOST gets at
 * most LAL_MAX_PEER_EXCHANGES turns in a row without a message from the
 * HOST in between, and at most LAL_MAX_TURNS_PER_SENDER_PER_HOUR turns an
 * hour. Beyond either its messages wait (undismissed, in the inbox, and
 * here until they may be served) and the HOST is told once, in one line,
 * who is held and how to let the agent go on; a message from the HOST
 * starts the count again and lets the held messages in. The counts live in
 * the agent's store (./sender-ledger.ts), the held work, its timer and the
 * HOST's told mark with the agent's holds (../lifecycle/holds.ts), so a
 * restart neither forgets a hold nor tells the HOST again.
 */
import type { Clock } from '../lifecycle/clock.js';
import { holdKey, type Holds } from '../lifecycle/holds.js';
import {
  countTurn,
  hourFreesAt,
  recordFor,
  turnsInHour,
  type SenderRecord,
} from './sender-ledger.js';

export interface ConversationLimits {
  /** Turns in a row for one sender without a word from the HOST (LAL_MAX_PEER_EXCHANGES). */
  maxPeerExchanges: number;
  /** Turns for one sender in any hour (LAL_MAX_TURNS_PER_SENDER_PER_HOUR). */
  maxTurnsPerSenderPerHour: number;
}

type Hold = { reason: 'exchanges' } | { reason: 'hourly'; until: number };

/**
 * The bounds as a judge of one sender's record at `now`: held for its turns
 * in a row, held by the hourly bound until the hour frees up, or not held
 * (undefined; also for no record: a sender never served, or the HOST).
 */
export const peerHold = (
  record: SenderRecord | undefined,
  limits: ConversationLimits,
  now: number,
): Hold | undefined => {
  if (record === undefined) return undefined;
  if (record.exchanges >= limits.maxPeerExchanges) return { reason: 'exchanges' };
  if (turnsInHour(record, now) >= limits.maxTurnsPerSenderPerHour)
    return { reason: 'hourly', until: hourFreesAt(record, limits.maxTurnsPerSenderPerHour, now) };
  return undefined;
};
harden(peerHold);

export interface ConversationBounds<W> {
  /** Undefined when this sender may be served now; else why and until when it waits. */
  check(key: string, isHost: boolean): Hold | undefined;
  /**
   * Keeps `work` until the sender may be served again; returns the line to
   * tell the HOST, the first time only for each hold. `where` its messages
   * wait, as the line says it ("in my inbox" for mail).
   */
  hold(key: string, name: string, hold: Hold, work: W, where?: string): string | undefined;
  /** A turn for this sender starts: counted; the HOST's lets every sender held for its exchanges go on. */
  served(key: string, name: string, isHost: boolean): void;
  /** For help(): the senders served, most recent first, with who is held. */
  describe(): string[];
}

export const makeConversationBounds = <W>(options: {
  records: SenderRecord[];
  limits: ConversationLimits;
  clock: Clock;
  hostName: string;
  /** The agent's holds: a held sender's work is parked, and the HOST's told mark kept, under its key. */
  holds: Holds<W>;
  /** Whether the sender of this key writes from another daemon (the node part of its id). */
  elsewhere?: (key: string) => boolean;
}): ConversationBounds<W> => {
  const { records, limits, clock, hostName, holds } = options;
  const shown = (record: SenderRecord) =>
    options.elsewhere?.(record.key) === true && !record.name.includes('another daemon')
      ? `${record.name} (on another daemon)`
      : record.name;
  const find = (key: string) => records.find(record => record.key === key);
  // Held, and the HOST told why: the told mark is the hold's record (released, it goes).
  const heldFor = (key: string) => holds.toldWhy(holdKey.sender(key));
  const isHeld = (key: string) => heldFor(key) !== undefined;
  const check = (key: string, isHost: boolean): Hold | undefined =>
    peerHold(isHost ? undefined : find(key), limits, clock.now());

  const tellLine = (name: string, hold: Hold, where: string): string =>
    hold.reason === 'exchanges'
      ? `I stopped answering ${name} after ${limits.maxPeerExchanges} turns in a row without a word from you (LAL_MAX_PEER_EXCHANGES); its messages wait ${where}. Send me any message to let me go on.`
      : `I have answered ${name} ${limits.maxTurnsPerSenderPerHour} times in the last hour (LAL_MAX_TURNS_PER_SENDER_PER_HOUR); its messages wait ${where} until ${new Date(hold.until).toISOString()}.`;

  return {
    check,
    hold(key, name, hold, work, where = 'in my inbox') {
      const record = recordFor(records, key, name, isHeld);
      holds.park(holdKey.sender(key), work, hold.reason === 'hourly' ? hold.until : undefined);
      return holds.tellOnce(holdKey.sender(key), hold.reason)
        ? tellLine(record.name, hold, where)
        : undefined;
    },
    served(key, name, isHost) {
      const record = recordFor(records, key, name, isHeld);
      countTurn(record, clock.now());
      if (!isHost) {
        record.exchanges += 1;
        return;
      }
      for (const each of records) {
        each.exchanges = 0;
        if (heldFor(each.key) === 'exchanges') holds.release(holdKey.sender(each.key));
      }
    },
    describe() {
      const now = clock.now();
      return [...records]
        .sort((a, b) => b.last - a.last)
        .map(record => {
          const parts = [
            `${shown(record)}: ${record.served} turn${record.served === 1 ? '' : 's'}, the last at ${new Date(record.last).toISOString()}`,
          ];
          if (record.name !== hostName)
            parts.push(
              `${record.exchanges} in a row since ${hostName} spoke, ${turnsInHour(record, now)} in the last hour`,
            );
          const waits = holds.count(holdKey.sender(record.key));
          const held = heldFor(record.key);
          if (held === 'exchanges')
            parts.push(
              `HELD after ${limits.maxPeerExchanges} turns in a row (${waits} message${waits === 1 ? '' : 's'} wait; a message from ${hostName} lets it go on)`,
            );
          else if (held === 'hourly')
            parts.push(
              `HELD by the hourly bound (${waits} message${waits === 1 ? '' : 's'} wait until ${new Date(hourFreesAt(record, limits.maxTurnsPerSenderPerHour, now)).toISOString()})`,
            );
          return parts.join('; ');
        });
    },
  };
};
harden(makeConversationBounds);
