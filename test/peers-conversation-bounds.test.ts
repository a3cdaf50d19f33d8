/**
 * The conversation bounds on their ledger (src/peers/, docs/behaviour.md):
 * which sender waits and until when, the HOST told once per hold, a held
 * sender's messages let in by the HOST's word or by the hour passing, and
 * the ledger bounded to SENDERS_KEPT senders without ever forgetting one
 * that is held. Time is a manual clock. The agent-level tests are in
 * agent-peers.test.ts.
 */
import { describe, expect, test } from 'vitest';
import { makeConversationBounds } from '../src/peers/conversation-bounds.js';
import { SENDERS_KEPT, type SenderRecord } from '../src/peers/sender-ledger.js';
import { makeHolds, type ToldHold } from '../src/lifecycle/holds.js';
import { makeManualClock } from './support/manual-clock.js';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

const boundsFor = (limits: { maxPeerExchanges: number; maxTurnsPerSenderPerHour: number }) => {
  const records: SenderRecord[] = [];
  const clock = makeManualClock();
  const requeued: string[] = [];
  const told: ToldHold[] = [];
  const holds = makeHolds<string>({ clock, requeue: work => requeued.push(work), told });
  const bounds = makeConversationBounds<string>({
    records,
    limits,
    clock,
    hostName: 'HOST',
    holds,
  });
  return { records, clock, requeued, told, holds, bounds };
};

describe('the conversation bounds', () => {
  test('beyond SENDERS_KEPT senders the one served longest ago goes, never one that is held', () => {
    const { records, clock, requeued, bounds } = boundsFor({
      maxPeerExchanges: 2,
      maxTurnsPerSenderPerHour: 100,
    });
    bounds.served('k0', 'peer-0', false);
    bounds.served('k0', 'peer-0', false);
    const hold = bounds.check('k0', false);
    expect(hold).toEqual({ reason: 'exchanges' });
    expect(bounds.hold('k0', 'peer-0', hold!, 'first')).toBe(
      'I stopped answering peer-0 after 2 turns in a row without a word from you (LAL_MAX_PEER_EXCHANGES); its messages wait in my inbox. Send me any message to let me go on.',
    );
    // Held already and told: the HOST is not told again.
    expect(bounds.hold('k0', 'peer-0', hold!, 'second')).toBeUndefined();
    for (let index = 1; index <= SENDERS_KEPT; index += 1) {
      clock.advance(1_000);
      bounds.served(`k${index}`, `peer-${index}`, false);
    }
    const keys = records.map(record => record.key);
    expect(keys).toHaveLength(SENDERS_KEPT);
    // peer-0 was served first but is held: peer-1, the oldest of the others, went instead.
    expect(keys).toContain('k0');
    expect(keys).not.toContain('k1');
    expect(keys).toContain(`k${SENDERS_KEPT}`);
    expect(bounds.describe().find(line => line.startsWith('peer-0:'))).toMatch(
      /; HELD after 2 turns in a row \(2 messages wait; a message from HOST lets it go on\)$/,
    );
    // A word from the HOST lets the held messages in, in order.
    bounds.served('host', 'HOST', true);
    expect(requeued).toEqual(['first', 'second']);
    expect(bounds.check('k0', false)).toBeUndefined();
  });

  test('when every sender kept is held, a new one is kept beside them rather than a hold forgotten', () => {
    const { records, clock, told, bounds } = boundsFor({
      maxPeerExchanges: 1,
      maxTurnsPerSenderPerHour: 100,
    });
    for (let index = 0; index < SENDERS_KEPT; index += 1) {
      clock.advance(1_000);
      bounds.served(`k${index}`, `peer-${index}`, false);
      bounds.hold(`k${index}`, `peer-${index}`, bounds.check(`k${index}`, false)!, `w${index}`);
    }
    bounds.served('new', 'newcomer', false);
    expect(records).toHaveLength(SENDERS_KEPT + 1);
    expect(told.filter(mark => mark.why === 'exchanges')).toHaveLength(SENDERS_KEPT);
  });

  test('the hourly bound holds a sender until its oldest turns of the hour have passed, then lets it in', () => {
    const { clock, requeued, holds, bounds } = boundsFor({
      maxPeerExchanges: 100,
      maxTurnsPerSenderPerHour: 3,
    });
    const start = clock.now();
    // A turn long ago does not count toward this hour.
    bounds.served('k', 'peer', false);
    clock.advance(2 * HOUR);
    const hourStart = clock.now();
    bounds.served('k', 'peer', false);
    bounds.served('k', 'peer', false);
    clock.advance(10 * MINUTE);
    expect(bounds.check('k', false)).toBeUndefined();
    bounds.served('k', 'peer', false);
    const hold = bounds.check('k', false);
    // The two turns of the first minute must leave the hour for one more to fit.
    expect(hold).toEqual({ reason: 'hourly', until: hourStart + HOUR });
    expect(start).toBeLessThan(hourStart);
    expect(bounds.hold('k', 'peer', hold!, 'waiting')).toBe(
      `I have answered peer 3 times in the last hour (LAL_MAX_TURNS_PER_SENDER_PER_HOUR); its messages wait in my inbox until ${new Date(hourStart + HOUR).toISOString()}.`,
    );
    expect(bounds.describe()[0]).toMatch(
      /^peer: 4 turns, the last at .*; 4 in a row since HOST spoke, 3 in the last hour; HELD by the hourly bound \(1 message wait until /,
    );
    clock.advance(HOUR - 10 * MINUTE - 1);
    expect(requeued).toEqual([]);
    clock.advance(1);
    expect(requeued).toEqual(['waiting']);
    expect(bounds.check('k', false)).toBeUndefined();
    holds.stop();
  });
});
