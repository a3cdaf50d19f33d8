/**
 * The peers' ledger and bounds, case by case (src/peers/, docs/behaviour.md
 * "Other agents"): what a stored record must hold to be read back, the
 * sender keys, the hour's count and when it frees, the ledger's bound, and
 * the bounds at their edges — the HOST never held, a hold told once per
 * reason, timers armed once and disarmed by stop, help()'s lines. Time is a
 * manual clock; conversation-bounds.test.ts and agent-peers.test.ts hold the
 * main paths.
 */
import { describe, expect, test } from 'vitest';
import { makeConversationBounds } from '../src/peers/conversation-bounds.js';
import {
  countTurn,
  hourFreesAt,
  readSenderRecords,
  recordFor,
  senderKey,
  SENDERS_KEPT,
  turnsInHour,
  type SenderRecord,
  type StoredSenderRecord,
} from '../src/peers/sender-ledger.js';
import { holdKey, makeHolds, type ToldHold } from '../src/lifecycle/holds.js';
import { makeManualClock } from './support/manual-clock.js';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const T0 = Date.UTC(2026, 10, 23, 9, 0, 0);

const record = (fields: Partial<StoredSenderRecord> = {}): StoredSenderRecord => ({
  key: 'k',
  name: 'peer',
  served: 1,
  last: T0,
  exchanges: 0,
  minutes: [],
  ...fields,
});

describe('the records read back from the store', () => {
  test('only whole records are read; anything else is left out, and no list is none', () => {
    const good = record({ minutes: [[T0, 2]], held: 'hourly', told: true });
    const alsoGood = record({ key: 'k2', held: 'exchanges', told: false });
    const plain = record({ key: 'k3' });
    const bad: unknown[] = [
      null,
      'a record',
      { ...good, key: 7 },
      { ...good, name: undefined },
      { ...good, served: '1' },
      { ...good, last: null },
      { ...good, exchanges: '0' },
      { ...good, minutes: 'none' },
      { ...good, minutes: [[T0]] },
      { ...good, minutes: [[T0, 1, 2]] },
      { ...good, minutes: [[T0, Number.NaN]] },
      { ...good, minutes: [[String(T0), 1]] },
      { ...good, minutes: [{ 0: T0, 1: 1, length: 2 }] },
      { ...good, held: 'forever' },
      { ...good, told: 'yes' },
    ];
    expect(readSenderRecords([good, ...bad, alsoGood, plain])).toEqual([good, alsoGood, plain]);
    expect(readSenderRecords({ 0: good })).toEqual([]);
    expect(readSenderRecords(undefined)).toEqual([]);
  });
});

describe('sender keys', () => {
  test('sixteen digits of the number and of the node; an id without a node keeps an empty one', () => {
    expect(senderKey(`${'1'.repeat(64)}:${'a'.repeat(64)}`)).toBe(
      `${'1'.repeat(16)}:${'a'.repeat(16)}`,
    );
    expect(senderKey('short')).toBe('short:');
  });
});

describe("the hour's count", () => {
  test('turns of minutes that started more than an hour ago do not count', () => {
    const now = T0 + 2 * HOUR;
    const counted = record({
      minutes: [
        [now - HOUR, 5],
        [now - HOUR + MINUTE, 2],
        [now, 1],
      ],
    });
    expect(turnsInHour(counted, now)).toBe(3);
  });

  test('frees when enough of its oldest minutes have left the hour for one more turn', () => {
    const now = T0 + 2 * HOUR;
    const minutes: [number, number][] = [
      [now - HOUR, 9],
      [now - 50 * MINUTE, 2],
      [now - 40 * MINUTE, 1],
      [now - 30 * MINUTE, 1],
    ];
    const counted = record({ minutes });
    // Four turns in the hour (the minute an hour ago is out): under four or three, one more fits once the first minute goes.
    expect(hourFreesAt(counted, 4, now)).toBe(now - 50 * MINUTE + HOUR);
    expect(hourFreesAt(counted, 3, now)).toBe(now - 50 * MINUTE + HOUR);
    // Under two: the first two minutes must go.
    expect(hourFreesAt(counted, 2, now)).toBe(now - 40 * MINUTE + HOUR);
    expect(hourFreesAt(counted, 1, now)).toBe(now - 30 * MINUTE + HOUR);
    // Room already: the hour from its oldest minute.
    expect(hourFreesAt(counted, 5, now)).toBe(now - 50 * MINUTE + HOUR);
    expect(hourFreesAt(record(), 1, now)).toBe(now + HOUR);
  });

  test('a turn is counted in its minute; minutes older than the hour are dropped', () => {
    const counted = record({ served: 0, last: 0, minutes: [[T0 - HOUR, 3]] });
    countTurn(counted, T0 + 5_000);
    countTurn(counted, T0 + 59_999);
    expect(counted.minutes).toEqual([[T0, 2]]);
    countTurn(counted, T0 + MINUTE);
    expect(counted.minutes).toEqual([
      [T0, 2],
      [T0 + MINUTE, 1],
    ]);
    // An hour after the first minute began, that minute is out.
    countTurn(counted, T0 + HOUR);
    expect(counted.minutes).toEqual([
      [T0 + MINUTE, 1],
      [T0 + HOUR, 1],
    ]);
    expect(counted.served).toBe(4);
    expect(counted.last).toBe(T0 + HOUR);
  });
});

describe('the ledger', () => {
  test('a new sender starts with nothing counted; a known one keeps its counts and takes its new name', () => {
    const records: SenderRecord[] = [];
    const made = recordFor(records, 'k', 'peer');
    expect(made).toEqual({ key: 'k', name: 'peer', served: 0, last: 0, exchanges: 0, minutes: [] });
    made.served = 3;
    expect(recordFor(records, 'k', 'renamed')).toMatchObject({ served: 3, name: 'renamed' });
    expect(records).toHaveLength(1);
  });

  test(`at ${SENDERS_KEPT} senders nothing goes; past them, the first of those served longest ago goes`, () => {
    const records: SenderRecord[] = [];
    for (let index = 0; index < SENDERS_KEPT; index += 1)
      recordFor(records, `k${index}`, 'peer').last = index === 1 || index === 2 ? 5 : 10 + index;
    expect(records).toHaveLength(SENDERS_KEPT);
    recordFor(records, 'new', 'newcomer');
    expect(records).toHaveLength(SENDERS_KEPT);
    const keys = records.map(each => each.key);
    expect(keys).not.toContain('k1');
    expect(keys).toContain('k0');
    expect(keys).toContain('k2');
    expect(keys).toContain('new');
  });
});

const boundsFor = (
  limits: { maxPeerExchanges: number; maxTurnsPerSenderPerHour: number },
  elsewhere?: (key: string) => boolean,
) => {
  const records: SenderRecord[] = [];
  const clock = makeManualClock();
  const requeued: string[] = [];
  const holds = makeHolds<string>({ clock, requeue: work => requeued.push(work), told: [] });
  const bounds = makeConversationBounds<string>({
    records,
    limits,
    clock,
    hostName: 'HOST',
    holds,
    ...(elsewhere === undefined ? {} : { elsewhere }),
  });
  return { records, clock, requeued, holds, bounds };
};

describe('holds kept in the store', () => {
  test('a hold read back without its told mark is told; released with no message waiting, nothing is requeued', () => {
    const records = [record({ exchanges: 3 })];
    const requeued: string[] = [];
    const clock = makeManualClock();
    const requeue = (work: string) => requeued.push(work);
    const bounds = makeConversationBounds<string>({
      records,
      limits: { maxPeerExchanges: 3, maxTurnsPerSenderPerHour: 100 },
      clock,
      hostName: 'HOST',
      holds: makeHolds({ clock, requeue, told: [] }),
    });
    const told: ToldHold[] = [{ key: holdKey.sender('r'), why: 'exchanges' }];
    const restored = makeConversationBounds<string>({
      records: [record({ key: 'r', exchanges: 3 })],
      limits: { maxPeerExchanges: 3, maxTurnsPerSenderPerHour: 100 },
      clock,
      hostName: 'HOST',
      holds: makeHolds({ clock, requeue, told }),
    });
    restored.served('host', 'HOST', true);
    expect(requeued).toEqual([]);
    expect(told).toEqual([]);
    expect(bounds.hold('k', 'peer', { reason: 'exchanges' }, 'w')).toMatch(
      /^I stopped answering peer/,
    );
  });
});

describe('the bounds at their edges', () => {
  test('the HOST is never held, past the hourly bound too; a sender never served is not held', () => {
    const { bounds } = boundsFor({ maxPeerExchanges: 1, maxTurnsPerSenderPerHour: 1 });
    for (let n = 0; n < 3; n += 1) bounds.served('host', 'HOST', true);
    expect(bounds.check('host', true)).toBeUndefined();
    expect(bounds.check('stranger', false)).toBeUndefined();
  });

  test('held from exactly LAL_MAX_PEER_EXCHANGES turns in a row, and from exactly the hourly count', () => {
    const { bounds } = boundsFor({ maxPeerExchanges: 2, maxTurnsPerSenderPerHour: 3 });
    bounds.served('k', 'peer', false);
    expect(bounds.check('k', false)).toBeUndefined();
    bounds.served('k', 'peer', false);
    expect(bounds.check('k', false)).toEqual({ reason: 'exchanges' });
    bounds.served('host', 'HOST', true);
    expect(bounds.check('k', false)).toBeUndefined();
    bounds.served('k', 'peer', false);
    expect(bounds.check('k', false)).toEqual({
      reason: 'hourly',
      until: makeManualClock().now() + HOUR,
    });
  });

  test('held by the hour: one timer however many messages wait; they come back in order, and the HOST is told again for another reason', () => {
    const { clock, requeued, bounds } = boundsFor({
      maxPeerExchanges: 1,
      maxTurnsPerSenderPerHour: 1,
    });
    bounds.served('k', 'peer', false);
    const until = clock.now() + HOUR;
    const exchanges = bounds.hold('k', 'peer', { reason: 'exchanges' }, 'w0');
    expect(exchanges).toMatch(/^I stopped answering peer after 1 turns in a row/);
    const hourly = { reason: 'hourly' as const, until };
    expect(bounds.hold('k', 'peer', hourly, 'w1')).toMatch(
      /^I have answered peer 1 times in the last hour/,
    );
    expect(bounds.hold('k', 'peer', hourly, 'w2')).toBeUndefined();
    expect(bounds.describe()[0]).toMatch(/HELD by the hourly bound \(3 messages wait until /);
    // An earlier time given later arms no second timer.
    bounds.hold('k', 'peer', { reason: 'hourly', until: until - 30 * MINUTE }, 'w3');
    clock.advance(HOUR - 30 * MINUTE);
    expect(requeued).toEqual([]);
    clock.advance(30 * MINUTE);
    expect(requeued).toEqual(['w0', 'w1', 'w2', 'w3']);
    // Released: a new hold is told again.
    expect(bounds.hold('k', 'peer', hourly, 'w4')).toMatch(/^I have answered peer/);
  });

  test("the HOST's word lets in those held for their turns in a row, not those held by the hour", () => {
    const { requeued, holds, bounds } = boundsFor({
      maxPeerExchanges: 1,
      maxTurnsPerSenderPerHour: 1,
    });
    bounds.served('a', 'alice', false);
    bounds.served('b', 'bob', false);
    bounds.hold('a', 'alice', { reason: 'exchanges' }, 'from alice');
    bounds.hold('b', 'bob', { reason: 'hourly', until: T0 + HOUR }, 'from bob');
    bounds.served('host', 'HOST', true);
    expect(requeued).toEqual(['from alice']);
    expect(bounds.describe().find(line => line.startsWith('bob'))).toMatch(/HELD by the hourly/);
    expect(bounds.describe().find(line => line.startsWith('alice'))).not.toMatch(/HELD/);
    holds.stop();
  });

  test('stopped, the timers are disarmed: nothing comes back', () => {
    const { clock, requeued, holds, bounds } = boundsFor({
      maxPeerExchanges: 5,
      maxTurnsPerSenderPerHour: 1,
    });
    bounds.served('k', 'peer', false);
    bounds.hold('k', 'peer', { reason: 'hourly', until: clock.now() + HOUR }, 'waiting');
    holds.stop();
    clock.advance(2 * HOUR);
    expect(requeued).toEqual([]);
  });

  test("help(): the most recent first, the HOST's line without counts, one turn and one message in the singular, a peer daemon's sender said so", () => {
    const { clock, bounds } = boundsFor(
      { maxPeerExchanges: 1, maxTurnsPerSenderPerHour: 10 },
      key => key !== 'host',
    );
    bounds.served('host', 'HOST', true);
    clock.advance(MINUTE);
    bounds.served('far', 'carol', false);
    bounds.hold('far', 'carol', { reason: 'exchanges' }, 'one');
    clock.advance(MINUTE);
    bounds.served('named', 'unnamed 12345678 on another daemon (node abcdef12)', false);
    bounds.served('named', 'unnamed 12345678 on another daemon (node abcdef12)', false);
    const at = (minutes: number) => new Date(T0 + minutes * MINUTE).toISOString();
    expect(bounds.describe()).toEqual([
      `unnamed 12345678 on another daemon (node abcdef12): 2 turns, the last at ${at(2)}; 2 in a row since HOST spoke, 2 in the last hour`,
      `carol (on another daemon): 1 turn, the last at ${at(1)}; 1 in a row since HOST spoke, 1 in the last hour; HELD after 1 turns in a row (1 message wait; a message from HOST lets it go on)`,
      `HOST: 1 turn, the last at ${at(0)}`,
    ]);
  });
});
