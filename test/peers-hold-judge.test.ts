/**
 * The peer bounds as a pure judge of one sender's record at a time
 * (src/peers/conversation-bounds.ts `peerHold`): no record (the HOST, or a
 * sender never served) is never held; past LAL_MAX_PEER_EXCHANGES turns in a
 * row it is held for them; past LAL_MAX_TURNS_PER_SENDER_PER_HOUR turns in
 * the last hour it is held until the oldest of them leaves the hour.
 */
import { describe, expect, test } from 'vitest';
import { peerHold } from '../src/peers/conversation-bounds.js';
import type { SenderRecord } from '../src/peers/sender-ledger.js';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const now = Date.UTC(2026, 10, 27, 12, 0, 0);
const limits = { maxPeerExchanges: 3, maxTurnsPerSenderPerHour: 4 };
const record = (exchanges: number, minutes: [number, number][]): SenderRecord => ({
  key: 'k',
  name: 'bob',
  served: 9,
  last: now,
  exchanges,
  minutes,
});

describe('peerHold', () => {
  test('no record is never held', () => {
    expect(peerHold(undefined, limits, now)).toBeUndefined();
  });

  test('held for its turns in a row at the bound, not before', () => {
    expect(peerHold(record(2, []), limits, now)).toBeUndefined();
    expect(peerHold(record(3, []), limits, now)).toEqual({ reason: 'exchanges' });
  });

  test('held by the hour until its oldest turn of the hour leaves it; turns over an hour old do not count', () => {
    const oldest = now - 50 * MINUTE;
    const turns: [number, number][] = [
      [now - 2 * HOUR, 9],
      [oldest, 2],
      [now - 10 * MINUTE, 1],
    ];
    expect(peerHold(record(0, turns), limits, now)).toBeUndefined();
    turns.push([now - MINUTE, 1]);
    expect(peerHold(record(0, turns), limits, now)).toEqual({
      reason: 'hourly',
      until: oldest + HOUR,
    });
  });
});
