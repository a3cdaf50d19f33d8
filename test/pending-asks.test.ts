/**
 * The one owner of every ask's state (src/pending/pending-asks.ts) as a
 * module: the store mirrors exactly the pending asks at every step, a told
 * ask leaves it at once, an answer after the run stopped is ignored, two
 * asks of one text take two copies, a disconnection is followed through
 * the ask's copy, and a restart finishes each stored ask by what its copy
 * says (or as interrupted, or lost). A version 4 store reads as sent.
 */
import { describe, expect, test } from 'vitest';
import { Far } from '@endo/far';
import type { PowersRef } from '../src/daemon/guest-powers.js';
import {
  emptyAskStore,
  isDisconnection,
  makePendingAsks,
  readAskStore,
  type AskStore,
  type NewAsk,
  type Settlement,
  type StoredAsk,
} from '../src/pending/pending-asks.js';

const request = (description: string, number?: number): NewAsk => ({
  kind: 'request',
  recipient: 'HOST',
  description,
  ...(number === undefined ? {} : { origin: { number: String(number), sender: 'alice' } }),
  detail: {},
});

const setUp = (options: { store?: AskStore; inbox?: unknown[] } = {}) => {
  const dismissed: bigint[] = [];
  const logs: string[] = [];
  const powers = Far('powers', {
    dismiss: (number: bigint) => {
      dismissed.push(number);
    },
    listMessages: () => harden(options.inbox ?? []),
  }) as unknown as PowersRef;
  const store = options.store ?? emptyAskStore();
  const asks = makePendingAsks({ store, powers, log: line => logs.push(line) });
  const finished: [string, Settlement][] = [];
  const finish = (ask: StoredAsk, settlement: Settlement) => {
    finished.push([ask.id, settlement]);
  };
  return { asks, store, dismissed, logs, finished, finish };
};

const states = (store: AskStore) => store.pending.map(ask => `${ask.id}:${ask.state}`);

describe('pending asks', () => {
  test('the store holds an ask from made to settled, and not once it is told', () => {
    const { asks, store } = setUp();
    const id = asks.make('r', () => request('the door code', 4));
    expect(id).toBe('r1');
    expect(states(store)).toEqual(['r1:made']);
    expect(asks.hasPendingFor(4n)).toBe(true);
    asks.sent(id);
    expect(states(store)).toEqual(['r1:sent']);
    expect(asks.answer(id, 'yes')).toBe('act');
    expect(states(store)).toEqual(['r1:settled']);
    expect(asks.hasPendingFor(4n)).toBe(true);
    // A second answer is no answer.
    expect(asks.answer(id, 'no')).toBe('ignore');
    asks.told(id);
    expect(store.pending).toEqual([]);
    expect(asks.hasPendingFor(4n)).toBe(false);
    expect(asks.make('a', () => request('x'))).toBe('a2');
  });

  test('a refusal is told; an unknown id is ignored', () => {
    const { asks, store } = setUp();
    const id = asks.make('r', () => request('x', 5));
    asks.sent(id);
    expect(asks.answer('r9', 'yes')).toBe('ignore');
    expect(asks.answer(id, 'no')).toBe('refuse');
    asks.told(id);
    expect(store.pending).toEqual([]);
    expect(asks.hasPendingFor(5n)).toBe(false);
  });

  test('after the run stopped, nothing is acted on and the store keeps the ask for the next run', () => {
    const { asks, store } = setUp();
    const id = asks.make('r', () => request('x', 5));
    asks.sent(id);
    asks.stop();
    expect(asks.stopped()).toBe(true);
    expect(asks.answer(id, 'yes')).toBe('ignore');
    asks.told(id);
    expect(states(store)).toEqual(['r1:sent']);
  });

  test('two asks of one text take a copy each; the copy of a told ask is dismissed once stored', async () => {
    const { asks, dismissed } = setUp();
    const first = asks.make('r', () => request('same'));
    const second = asks.make('r', () => request('same'));
    asks.sent(first);
    asks.sent(second);
    expect(asks.claimOwnCopy({ type: 'request', number: 7n, description: 'same' })).toBe(true);
    expect(asks.claimOwnCopy({ type: 'request', number: 8n, description: 'same' })).toBe(true);
    // Claimed already: still its ask's.
    expect(asks.claimOwnCopy({ type: 'request', number: 7n, description: 'same' })).toBe(true);
    expect(asks.claimOwnCopy({ type: 'request', number: 9n, description: 'same' })).toBe(false);
    expect(asks.claimOwnCopy({ type: 'request', number: 'x', description: 'same' })).toBe(false);
    asks.answer(second, 'yes');
    asks.told(second);
    await expect.poll(() => dismissed).toEqual([8n]);
    asks.answer(first, 'no');
    asks.told(first);
    await expect.poll(() => dismissed).toEqual([8n, 7n]);
  });

  test('a copy that comes after its ask was told is dismissed at once', async () => {
    const { asks, dismissed } = setUp();
    const id = asks.make('r', () => request('late'));
    asks.sent(id);
    asks.answer(id, 'yes');
    asks.told(id);
    expect(asks.claimOwnCopy({ type: 'request', number: 3n, description: 'late' })).toBe(true);
    await expect.poll(() => dismissed).toEqual([3n]);
  });

  test('a disconnection is followed through the copy: its settlement finishes the ask', async () => {
    const { asks, finish, finished, logs } = setUp();
    await asks.resume(finish);
    const id = asks.make('r', () => request('door'));
    asks.sent(id);
    asks.disconnected(id);
    expect(logs).toEqual([expect.stringMatching(/connection broke while r1/)]);
    expect(finished).toEqual([]);
    let settle!: (value: string) => void;
    const settled = new Promise<string>(resolve => {
      settle = resolve;
    });
    asks.claimOwnCopy({ type: 'request', number: 2n, description: 'door', settled });
    settle('fulfilled');
    await expect.poll(() => finished).toEqual([['r1', 'fulfilled']]);
  });

  test('at start: a settled ask was interrupted, a copy says how another ended, a missing copy is lost', async () => {
    const stored = readAskStore({
      next: 4,
      pending: [
        { ...request('ran'), id: 'a1', state: 'settled' },
        { ...request('yes please'), id: 'r2' },
        { ...request('no please'), id: 'r3', state: 'sent' },
        { ...request('gone'), id: 'r4', state: 'made' },
      ],
    });
    expect(stored.lost).toBe(0);
    // A version 4 ask (no state) was sent.
    expect(states(stored.store)).toEqual(['a1:settled', 'r2:sent', 'r3:sent', 'r4:made']);
    const { asks, finish, finished, store } = setUp({
      store: stored.store,
      inbox: [
        { type: 'request', number: 5n, description: 'yes please', settled: 'fulfilled' },
        { type: 'request', number: 6n, description: 'no please', settled: 'rejected' },
      ],
    });
    await asks.resume(finish);
    await expect
      .poll(() => [...finished].sort())
      .toEqual([
        ['a1', 'interrupted'],
        ['r2', 'fulfilled'],
        ['r3', 'rejected'],
        ['r4', 'lost'],
      ]);
    for (const id of ['a1', 'r2', 'r3', 'r4']) asks.told(id);
    expect(store.pending).toEqual([]);
  });

  test('what does not read is left out and counted', () => {
    expect(readAskStore(undefined)).toEqual({ store: emptyAskStore(), lost: 0 });
    expect(readAskStore('x')).toEqual({ store: emptyAskStore(), lost: 1 });
    const { store, lost } = readAskStore({
      next: 0,
      pending: [
        { ...request('a'), id: 'r1', state: 'told' },
        { ...request('b'), id: 'r2' },
      ],
    });
    expect(lost).toBe(1);
    expect(store).toEqual({ next: 2, pending: [{ ...request('b'), id: 'r2', state: 'sent' }] });
  });
});

describe('what a stored ask must be', () => {
  const base = {
    id: 'r1',
    kind: 'request',
    recipient: 'HOST',
    description: 'd',
    origin: { number: '4', sender: 'alice' },
    detail: {},
  };
  test.each([
    ['null', null],
    ['a list', []],
    ['a string', 'r1'],
    ['an id that is not a string', { ...base, id: 1 }],
    ['an unknown kind', { ...base, kind: 'wish' }],
    ['a recipient that is not a string', { ...base, recipient: 1 }],
    ['a description that is not a string', { ...base, description: null }],
    ['no detail', { ...base, detail: undefined }],
    ['a detail that is a list', { ...base, detail: [] }],
    ['a detail that is null', { ...base, detail: null }],
    ['a state that is not stored', { ...base, state: 'told' }],
    ['an origin that is null', { ...base, origin: null }],
    ['an origin that is a list', { ...base, origin: [] }],
    ['an origin number that is a number', { ...base, origin: { number: 4, sender: 'a' } }],
    ['an origin number with letters after', { ...base, origin: { number: '4x', sender: 'a' } }],
    ['an origin number with letters before', { ...base, origin: { number: 'x4', sender: 'a' } }],
    ['an origin without a sender', { ...base, origin: { number: '4' } }],
  ])('%s is left out and counted', (_what, ask) => {
    expect(readAskStore({ next: 2, pending: [ask] })).toEqual({
      store: { next: 2, pending: [] },
      lost: 1,
    });
  });

  test.each([
    ['a request', base],
    ['an approval', { ...base, kind: 'approval' }],
    ['an evaluation', { ...base, kind: 'evaluation', state: 'settled' }],
    ['a proposal', { ...base, kind: 'proposal', state: 'made' }],
    ['one without an origin', { ...base, origin: undefined }],
  ])('%s reads', (_what, ask) => {
    const { store, lost } = readAskStore({ next: 2, pending: [ask] });
    expect(lost).toBe(0);
    expect(store.pending).toEqual([{ ...ask, state: (ask as { state?: string }).state ?? 'sent' }]);
  });

  test.each([
    [7, 7],
    [0, 2],
    [-3, 2],
    [2.5, 2],
    ['9', 2],
    [undefined, 2],
  ])('a next number of %s reads as %s (one more than the asks kept otherwise)', (next, read) => {
    expect(readAskStore({ next, pending: [base] }).store.next).toBe(read);
  });

  test.each([
    ['Disconnected: the daemon restarted', true],
    ['connection closed', true],
    ['Connection lost', true],
    ['the connection reset', true],
    ['CapTP connection aborted', true],
    ['not telling', false],
    ['reconnected fine', false],
    ['disconnectedness', false],
  ])('isDisconnection(%j) is %s, as an Error and as text', (text, expected) => {
    expect(isDisconnection(Error(text))).toBe(expected);
    expect(isDisconnection(text)).toBe(expected);
  });

  test('a proposal copy is its ask when the source matches and the result name matches or is absent', () => {
    const { asks } = setUp();
    const proposal = (id: string) => ({
      kind: 'proposal' as const,
      recipient: 'HOST',
      description: '1 + 1',
      detail: { resultName: id },
    });
    asks.make('p', () => proposal('one'));
    asks.make('p', () => proposal('two'));
    const copy = (number: bigint, extra: Record<string, unknown>) => ({
      type: 'eval-proposal-proposer',
      number,
      source: '1 + 1',
      ...extra,
    });
    expect(asks.claimOwnCopy(copy(1n, { resultName: 'three' }))).toBe(false);
    expect(asks.claimOwnCopy(copy(2n, { source: '2 + 2', resultName: 'one' }))).toBe(false);
    expect(asks.claimOwnCopy({ type: 'request', number: 3n, description: '1 + 1' })).toBe(false);
    expect(asks.claimOwnCopy(copy(4n, { resultName: 'two' }))).toBe(true);
    expect(asks.claimOwnCopy(copy(5n, {}))).toBe(true);
    expect(asks.claimOwnCopy(copy(6n, {}))).toBe(false);
  });
});
