/**
 * The one owner of every ask's state (src/asks/pending-asks.ts) as a
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
  originOfAsk,
  storedOrigin,
  readAskStore,
  type AskStore,
  type NewAsk,
  type Settlement,
  type StoredAsk,
} from '../src/asks/pending-asks.js';

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

/** Powers whose inbox read or dismissal fails, and that count each read. */
const failing = (what: { list?: boolean; dismiss?: boolean; inbox?: unknown[] }) => {
  const calls = { list: 0, dismiss: [] as bigint[] };
  const powers = Far('powers', {
    dismiss: (number: bigint) => {
      calls.dismiss.push(number);
      if (what.dismiss === true) throw Error('no such message');
    },
    listMessages: () => {
      calls.list += 1;
      if (what.list === true) throw Error('inbox unreadable');
      return harden(what.inbox ?? []);
    },
  }) as unknown as PowersRef;
  return { powers, calls };
};

const settlingLater = () => {
  let settle!: (value: string) => void;
  let refuse!: (reason: Error) => void;
  const settled = new Promise<string>((resolve, reject) => {
    settle = resolve;
    refuse = reject;
  });
  // Observed by the ask once claimed; a rejection before that is not unhandled.
  settled.catch(() => {});
  return { settled, settle, refuse };
};

describe('when something fails, and at the edges', () => {
  test('an inbox that cannot be read is logged, nothing is finished, and the asks stay stored', async () => {
    const { powers, calls } = failing({ list: true });
    const stored = readAskStore({
      next: 3,
      pending: [
        { ...request('ran'), id: 'a1', state: 'settled' },
        { ...request('waits'), id: 'r2', state: 'sent' },
      ],
    }).store;
    const logs: string[] = [];
    const asks = makePendingAsks({ store: stored, powers, log: line => logs.push(line) });
    const finished: [string, Settlement][] = [];
    await asks.resume((ask, settlement) => void finished.push([ask.id, settlement]));
    expect(calls.list).toBe(1);
    expect(logs).toEqual([
      'could not read the inbox to follow 1 pending ask(s): Error: inbox unreadable',
    ]);
    // The running call is still interrupted; the waiting ask is the next run's.
    expect(finished).toEqual([['a1', 'interrupted']]);
    expect(states(stored)).toEqual(['a1:settled', 'r2:sent']);
    expect(asks.hasPendingFor(4n)).toBe(false);
  });

  test('with nothing waiting, resume does not read the inbox', async () => {
    const { powers, calls } = failing({});
    const stored = readAskStore({
      next: 2,
      pending: [{ ...request('ran'), id: 'a1', state: 'settled' }],
    }).store;
    const asks = makePendingAsks({ store: stored, powers, log: () => {} });
    const finished: string[] = [];
    await asks.resume(ask => void finished.push(ask.id));
    expect(calls.list).toBe(0);
    expect(finished).toEqual(['a1']);
  });

  test('a dismissal that fails is logged and loses nothing else', async () => {
    const { powers, calls } = failing({ dismiss: true });
    const logs: string[] = [];
    const asks = makePendingAsks({ store: emptyAskStore(), powers, log: line => logs.push(line) });
    const id = asks.make('r', () => request('late'));
    asks.sent(id);
    asks.answer(id, 'yes');
    asks.told(id);
    expect(asks.claimOwnCopy({ type: 'request', number: 3n, description: 'late' })).toBe(true);
    await expect
      .poll(() => logs)
      .toEqual(['could not dismiss own copy #3: Error: no such message']);
    expect(calls.dismiss).toEqual([3n]);
    // Dismissed once: the copy is no ask's any more.
    expect(asks.claimOwnCopy({ type: 'request', number: 3n, description: 'late' })).toBe(false);
  });

  test('a told ask waits for its copy among the last 64 told; an older one is forgotten', async () => {
    const { asks, dismissed } = setUp();
    const ids = Array.from({ length: 66 }, (_, i) => asks.make('r', () => request(`ask ${i}`)));
    for (const id of ids) {
      asks.sent(id);
      asks.answer(id, 'yes');
      asks.told(id);
    }
    // 66 told, 64 kept: the two oldest are forgotten, the third is not.
    expect(asks.claimOwnCopy({ type: 'request', number: 100n, description: 'ask 0' })).toBe(false);
    expect(asks.claimOwnCopy({ type: 'request', number: 101n, description: 'ask 1' })).toBe(false);
    expect(asks.claimOwnCopy({ type: 'request', number: 102n, description: 'ask 2' })).toBe(true);
    expect(asks.claimOwnCopy({ type: 'request', number: 103n, description: 'ask 65' })).toBe(true);
    await expect.poll(() => [...dismissed].sort()).toEqual([102n, 103n]);
  });

  test('64 told asks are all kept', () => {
    const { asks } = setUp();
    const ids = Array.from({ length: 64 }, (_, i) => asks.make('r', () => request(`ask ${i}`)));
    for (const id of ids) {
      asks.sent(id);
      asks.answer(id, 'no');
      asks.told(id);
    }
    expect(asks.claimOwnCopy({ type: 'request', number: 100n, description: 'ask 0' })).toBe(true);
  });

  test('a pending ask is never forgotten by the told limit', () => {
    const { asks } = setUp();
    const waiting = asks.make('r', () => request('waiting'));
    asks.sent(waiting);
    const ids = Array.from({ length: 70 }, (_, i) => asks.make('r', () => request(`ask ${i}`)));
    for (const id of ids) {
      asks.sent(id);
      asks.answer(id, 'yes');
      asks.told(id);
    }
    expect(asks.claimOwnCopy({ type: 'request', number: 1n, description: 'waiting' })).toBe(true);
  });

  test('a copy whose settlement is refused finishes its disconnected ask as rejected', async () => {
    const { asks, finish, finished, store } = setUp();
    await asks.resume(finish);
    const id = asks.make('r', () => request('door'));
    asks.sent(id);
    asks.disconnected(id);
    const later = settlingLater();
    asks.claimOwnCopy({ type: 'request', number: 2n, description: 'door', settled: later.settled });
    later.refuse(Error('Disconnected'));
    await expect.poll(() => finished).toEqual([['r1', 'rejected']]);
    expect(states(store)).toEqual(['r1:settled']);
  });

  test('a copy settled otherwise than fulfilled is a refusal', async () => {
    const { asks, finish, finished, store } = setUp();
    await asks.resume(finish);
    const id = asks.make('r', () => request('door'));
    asks.sent(id);
    asks.disconnected(id);
    asks.claimOwnCopy({ type: 'request', number: 2n, description: 'door', settled: 'rejected' });
    await expect.poll(() => finished).toEqual([['r1', 'rejected']]);
    expect(states(store)).toEqual(['r1:settled']);
    // Settled already: a late answer is no answer.
    expect(asks.answer(id, 'yes')).toBe('ignore');
  });

  test('a copy claimed before the disconnection is followed at the disconnection', async () => {
    const { asks, finish, finished, logs } = setUp();
    await asks.resume(finish);
    const id = asks.make('r', () => request('door'));
    asks.sent(id);
    asks.claimOwnCopy({ type: 'request', number: 2n, description: 'door', settled: 'fulfilled' });
    await Promise.resolve();
    expect(finished).toEqual([]);
    asks.disconnected(id);
    expect(logs).toEqual(['the connection broke while r1 waited for HOST; it keeps waiting']);
    await expect.poll(() => finished).toEqual([['r1', 'fulfilled']]);
  });

  test('a copy is not followed without a disconnection, nor before resume', async () => {
    const { asks, finished } = setUp();
    const before = asks.make('r', () => request('before'));
    asks.sent(before);
    asks.disconnected(before);
    asks.claimOwnCopy({ type: 'request', number: 2n, description: 'before', settled: 'fulfilled' });
    const resumed = setUp();
    await resumed.asks.resume(resumed.finish);
    const plain = resumed.asks.make('r', () => request('plain'));
    resumed.asks.sent(plain);
    resumed.asks.claimOwnCopy({
      type: 'request',
      number: 3n,
      description: 'plain',
      settled: 'fulfilled',
    });
    // The tracker's own promise answers these; the copies wait.
    for (let i = 0; i < 5; i += 1) await Promise.resolve();
    expect(finished).toEqual([]);
    expect(resumed.finished).toEqual([]);
    expect(asks.answer(before, 'yes')).toBe('act');
    expect(resumed.asks.answer(plain, 'yes')).toBe('act');
  });

  test('a disconnection of an ask that no longer waits is not logged and changes nothing', async () => {
    const { asks, finish, finished, logs, store } = setUp();
    await asks.resume(finish);
    const id = asks.make('r', () => request('door'));
    asks.sent(id);
    asks.answer(id, 'yes');
    asks.claimOwnCopy({ type: 'request', number: 2n, description: 'door', settled: 'rejected' });
    asks.disconnected(id);
    asks.disconnected('r9');
    for (let i = 0; i < 5; i += 1) await Promise.resolve();
    expect(logs).toEqual([]);
    expect(finished).toEqual([]);
    expect(states(store)).toEqual(['r1:settled']);
  });

  test('after the run stopped, a copy that settles finishes nothing', async () => {
    const { asks, finish, finished, store } = setUp();
    await asks.resume(finish);
    const id = asks.make('r', () => request('door'));
    asks.sent(id);
    asks.disconnected(id);
    const later = settlingLater();
    asks.claimOwnCopy({ type: 'request', number: 2n, description: 'door', settled: later.settled });
    asks.stop();
    later.settle('fulfilled');
    const other = settlingLater();
    const second = asks.make('r', () => request('window'));
    asks.disconnected(second);
    asks.claimOwnCopy({ type: 'request', number: 3n, description: 'x', settled: other.settled });
    for (let i = 0; i < 5; i += 1) await Promise.resolve();
    expect(finished).toEqual([]);
    expect(states(store)).toEqual(['r1:sent', 'r2:made']);
  });

  test('a told copy is dismissed only after the store is written, and also when writing fails', async () => {
    const dismissed: bigint[] = [];
    const powers = Far('powers', {
      dismiss: (number: bigint) => void dismissed.push(number),
      listMessages: () => harden([]),
    }) as unknown as PowersRef;
    let written!: () => void;
    let failWrite!: (reason: Error) => void;
    const saves: Promise<void>[] = [
      new Promise(resolve => {
        written = resolve;
      }),
      new Promise((_, reject) => {
        failWrite = reject;
      }),
    ];
    let saved = 0;
    const asks = makePendingAsks({
      store: emptyAskStore(),
      powers,
      log: () => {},
      save: () => {
        saved += 1;
        return saves[saved - 1]!;
      },
    });
    const id = asks.make('r', () => request('door'));
    asks.sent(id);
    asks.claimOwnCopy({ type: 'request', number: 2n, description: 'door' });
    asks.answer(id, 'yes');
    asks.told(id);
    for (let i = 0; i < 5; i += 1) await Promise.resolve();
    expect(saved).toBe(1);
    expect(dismissed).toEqual([]);
    written();
    await expect.poll(() => dismissed).toEqual([2n]);
    const other = asks.make('r', () => request('window'));
    asks.sent(other);
    asks.claimOwnCopy({ type: 'request', number: 3n, description: 'window' });
    asks.answer(other, 'no');
    asks.told(other);
    failWrite(Error('disk full'));
    await expect.poll(() => dismissed).toEqual([2n, 3n]);
  });

  test('at start, two stored asks of one text take one copy each, skipping copies without a number', async () => {
    const stored = readAskStore({
      next: 3,
      pending: [
        { ...request('same'), id: 'r1', state: 'sent' },
        { ...request('same'), id: 'r2', state: 'sent' },
      ],
    }).store;
    const { asks, finish, finished } = setUp({
      store: stored,
      inbox: [
        { type: 'request', number: '4', description: 'same', settled: 'rejected' },
        { type: 'request', number: 5n, description: 'same', settled: 'fulfilled' },
        { type: 'request', number: 6n, description: 'same', settled: 'rejected' },
      ],
    });
    await asks.resume(finish);
    await expect
      .poll(() => [...finished].sort())
      .toEqual([
        ['r1', 'fulfilled'],
        ['r2', 'rejected'],
      ]);
  });

  test('a lost ask leaves the store at once and is told once', async () => {
    const stored = readAskStore({
      next: 2,
      pending: [{ ...request('gone', 4), id: 'r1', state: 'sent' }],
    }).store;
    const { asks, finish, finished } = setUp({ store: stored });
    await asks.resume(finish);
    expect(finished).toEqual([['r1', 'lost']]);
    expect(stored.pending).toEqual([]);
    expect(asks.hasPendingFor(4n)).toBe(false);
    expect(asks.pending()).toBe(stored.pending);
  });

  test('pending asks answer for their own message only', () => {
    const { asks } = setUp();
    asks.make('r', () => request('x', 4));
    asks.make('r', () => request('y'));
    expect(asks.hasPendingFor(4n)).toBe(true);
    expect(asks.hasPendingFor(5n)).toBe(false);
  });
});

describe('more edges of the owner', () => {
  test('an origin is stored with its number as text and read back as a bigint', () => {
    expect(storedOrigin(undefined)).toBeUndefined();
    expect(storedOrigin({ number: 12n, sender: 'alice' })).toEqual({
      number: '12',
      sender: 'alice',
    });
    const ask: StoredAsk = { ...request('x', 12), id: 'r1' };
    expect(originOfAsk(ask)).toEqual({ number: 12n, sender: 'alice' });
    expect(originOfAsk({ ...request('x'), id: 'r2' })).toBeUndefined();
  });

  test.each(['undisconnected', 'xcaptp', 'captpx', 'disconnectionless'])(
    'isDisconnection(%j) is false: a whole word only',
    text => {
      expect(isDisconnection(text)).toBe(false);
    },
  );

  test('an ask handed over without a state was sent', () => {
    const store: AskStore = { next: 2, pending: [{ ...request('x', 3), id: 'r1' }] };
    const { asks } = setUp({ store });
    expect(asks.hasPendingFor(3n)).toBe(true);
    expect(asks.answer('r1', 'yes')).toBe('act');
    expect(states(store)).toEqual(['r1:settled']);
  });

  test('telling a lost ask leaves the other stored asks alone', async () => {
    const stored = readAskStore({
      next: 3,
      pending: [
        { ...request('gone'), id: 'r1', state: 'sent' },
        { ...request('here'), id: 'r2', state: 'sent' },
      ],
    }).store;
    const later = settlingLater();
    const { asks, finish, finished } = setUp({
      store: stored,
      inbox: [{ type: 'request', number: 5n, description: 'here', settled: later.settled }],
    });
    await asks.resume(finish);
    expect(finished).toEqual([['r1', 'lost']]);
    // A lost ask, not yet told, takes no copy that comes by later.
    expect(asks.claimOwnCopy({ type: 'request', number: 6n, description: 'gone' })).toBe(false);
    asks.told('r1');
    expect(states(stored)).toEqual(['r2:sent']);
  });

  test('a stopped run finishes no lost ask at start', async () => {
    const stored = readAskStore({
      next: 2,
      pending: [{ ...request('gone'), id: 'r1', state: 'sent' }],
    }).store;
    const { asks, finish, finished } = setUp({ store: stored });
    asks.stop();
    await asks.resume(finish);
    expect(finished).toEqual([]);
    expect(states(stored)).toEqual(['r1:sent']);
  });

  test('the told limit passes over asks whose copies were dismissed already', async () => {
    const { asks, dismissed } = setUp();
    const tell = (i: number) => {
      const id = asks.make('r', () => request(`ask ${i}`));
      asks.sent(id);
      asks.claimOwnCopy({ type: 'request', number: BigInt(1000 + i), description: `ask ${i}` });
      asks.answer(id, 'yes');
      asks.told(id);
    };
    for (let i = 0; i < 65; i += 1) tell(i);
    await expect.poll(() => dismissed.length).toBe(65);
    expect(() => tell(65)).not.toThrow();
    await expect.poll(() => dismissed.length).toBe(66);
  });
});

describe('what a copy must be', () => {
  test('an origin number of several digits reads', () => {
    const ask = { ...request('x', 12), id: 'r1', state: 'sent' };
    expect(readAskStore({ next: 2, pending: [ask] })).toEqual({
      store: { next: 2, pending: [ask] },
      lost: 0,
    });
  });

  test('a copy of another type, or without a bigint number, is not a request', () => {
    const { asks } = setUp();
    asks.sent(asks.make('r', () => request('door')));
    expect(
      asks.claimOwnCopy({ type: 'eval-proposal-proposer', number: 1n, description: 'door' }),
    ).toBe(false);
    expect(asks.claimOwnCopy({ type: 'request', number: 2, description: 'door' })).toBe(false);
    expect(asks.claimOwnCopy({ type: 'request', number: 3n, description: 'door' })).toBe(true);
  });

  test('a request copy with the same source is not a proposal', () => {
    const { asks } = setUp();
    asks.make('p', () => ({
      kind: 'proposal',
      recipient: 'HOST',
      description: '1 + 1',
      detail: {},
    }));
    expect(asks.claimOwnCopy({ type: 'request', number: 1n, source: '1 + 1' })).toBe(false);
    expect(asks.claimOwnCopy({ type: 'eval-proposal-proposer', number: 2n, source: '1 + 1' })).toBe(
      true,
    );
  });
});

describe('what does not happen', () => {
  test('after the run stopped, a copy whose settlement is refused finishes nothing', async () => {
    const { asks, finish, finished, store } = setUp();
    await asks.resume(finish);
    const id = asks.make('r', () => request('door'));
    asks.sent(id);
    asks.disconnected(id);
    const later = settlingLater();
    asks.claimOwnCopy({ type: 'request', number: 2n, description: 'door', settled: later.settled });
    asks.stop();
    later.refuse(Error('refused'));
    for (let i = 0; i < 5; i += 1) await Promise.resolve();
    expect(finished).toEqual([]);
    expect(states(store)).toEqual(['r1:sent']);
  });

  test('a disconnection before resume, with the copy claimed, leaves the ask to its answer', async () => {
    const { asks, store } = setUp();
    const id = asks.make('r', () => request('door'));
    asks.sent(id);
    asks.claimOwnCopy({ type: 'request', number: 2n, description: 'door', settled: 'fulfilled' });
    asks.disconnected(id);
    for (let i = 0; i < 5; i += 1) await Promise.resolve();
    expect(states(store)).toEqual(['r1:sent']);
    expect(asks.answer(id, 'yes')).toBe('act');
  });

  test('telling an ask that has no outcome yet neither drops it nor dismisses its copy', async () => {
    const { asks, store, dismissed } = setUp();
    const id = asks.make('r', () => request('door'));
    asks.sent(id);
    asks.claimOwnCopy({ type: 'request', number: 2n, description: 'door' });
    asks.told(id);
    for (let i = 0; i < 5; i += 1) await Promise.resolve();
    expect(dismissed).toEqual([]);
    expect(states(store)).toEqual(['r1:sent']);
  });
});
