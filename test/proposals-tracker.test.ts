/**
 * The proposal tracker as a module, with the pending asks that own its
 * proposals' state, on the paths the daemon's timing makes rare: the
 * agent's own copy of a proposal coming by while it waits, or after it
 * settled (both dismissed once settled), a copy that matches nothing
 * (ignored), a failed dismissal (logged, not thrown), and a rejection that
 * is not an Error. The usual paths are in agent-proposals.test.ts.
 */
import { describe, expect, test } from 'vitest';
import { Far } from '@endo/far';
import { makeProposalTracker, type Proposal } from '../src/asks/proposal-tracker.js';
import { makeNoticeQueue } from '../src/serving/notices.js';
import type { Notice } from '../src/mail/origin.js';
import { emptyAskStore, makePendingAsks } from '../src/asks/pending-asks.js';
import type { PowersRef } from '../src/daemon/guest-powers.js';

const makeHost = (options: { dismissFails?: boolean } = {}) => {
  const settlers: { resolve: (value: unknown) => void; reject: (reason: unknown) => void }[] = [];
  const dismissed: bigint[] = [];
  const powers = Far('powers', {
    evaluate: () => new Promise((resolve, reject) => settlers.push({ resolve, reject })),
    dismiss(number: bigint) {
      if (options.dismissFails === true) throw Error('no such message');
      dismissed.push(number);
    },
  });
  return { powers: powers as unknown as PowersRef, settlers, dismissed };
};

const proposal = (source: string, extra: Partial<Proposal> = {}): Proposal => ({
  source,
  codeNames: [],
  petNamePaths: [],
  resultName: 'answer',
  workerName: undefined,
  origin: { number: 4n, sender: 'alice' },
  ...extra,
});

const setUp = (options: { dismissFails?: boolean } = {}) => {
  const host = makeHost(options);
  const notices: Notice[] = [];
  const queue = makeNoticeQueue(() => notices.push(...queue.take()));
  const logs: string[] = [];
  const log = (line: string) => logs.push(line);
  const store = emptyAskStore();
  const asks = makePendingAsks({ store, powers: host.powers, log });
  const tracker = makeProposalTracker({ powers: host.powers, log, notices: queue, asks });
  // The host sees the proposal on a later turn (an eventual send): wait for it.
  const asked = async () => {
    await expect.poll(() => host.settlers.length).toBe(1);
    return host.settlers[0]!;
  };
  return { ...host, notices, logs, tracker, asks, store, asked };
};

describe('proposal tracker', () => {
  test('a copy that came by while its proposal waits is kept, and dismissed once granted; the store is then empty', async () => {
    const { tracker, asks, store, asked, dismissed, notices } = setUp();
    expect(tracker.propose(proposal('1 + 1'))).toMatchObject({
      status: 'pending',
      proposalId: 'p1',
    });
    expect(
      asks.claimOwnCopy({
        type: 'eval-proposal-proposer',
        number: 11n,
        source: '1 + 1',
        resultName: 'answer',
      }),
    ).toBe(true);
    expect(asks.hasPendingFor(4n)).toBe(true);
    expect(tracker.pendingSources()).toEqual(['1 + 1']);
    expect(store.pending.map(ask => [ask.id, ask.state])).toEqual([['p1', 'sent']]);
    (await asked()).resolve(2);
    await expect.poll(() => dismissed).toEqual([11n]);
    expect(notices.map(notice => notice.text.split(':')[0])).toEqual(['GRANTED']);
    expect(asks.hasPendingFor(4n)).toBe(false);
    expect(tracker.pendingSources()).toEqual([]);
    expect(store.pending).toEqual([]);
  });

  test('a copy that comes by after its proposal settled is dismissed at once', async () => {
    const { tracker, asks, asked, dismissed, notices } = setUp();
    tracker.propose(proposal('2 + 2'));
    (await asked()).reject('the host said no');
    await expect.poll(() => notices.length).toBe(1);
    // A rejection that is not an Error is shown as its text.
    expect(notices[0]!.text).toMatch(/^REJECTED: .* Reason: the host said no\n/);
    asks.claimOwnCopy({ type: 'eval-proposal-proposer', number: 12n, source: '2 + 2' });
    await expect.poll(() => dismissed).toEqual([12n]);
  });

  test('a copy of another source or result name is not matched; one without a number is ignored', async () => {
    const { tracker, asks, asked, dismissed } = setUp();
    tracker.propose(proposal('3 + 3'));
    asks.claimOwnCopy({
      type: 'eval-proposal-proposer',
      number: 13n,
      source: '3 + 3',
      resultName: 'other',
    });
    asks.claimOwnCopy({ type: 'eval-proposal-proposer', number: 14n, source: '4 + 4' });
    asks.claimOwnCopy({ type: 'eval-proposal-proposer', number: 'x', source: '3 + 3' });
    (await asked()).resolve(6);
    // The matching copy comes last; only it is dismissed.
    asks.claimOwnCopy({ type: 'eval-proposal-proposer', number: 15n, source: '3 + 3' });
    await expect.poll(() => dismissed).toEqual([15n]);
  });

  test('a dismissal that fails is logged and the proposal stays settled', async () => {
    const { tracker, asks, asked, logs } = setUp({ dismissFails: true });
    tracker.propose(proposal('5'));
    asks.claimOwnCopy({ type: 'eval-proposal-proposer', number: 16n, source: '5' });
    (await asked()).resolve(5);
    await expect
      .poll(() => logs)
      .toEqual([expect.stringMatching(/^could not dismiss own copy #16: .*no such message/)]);
    expect(tracker.pendingSources()).toEqual([]);
  });
});

describe('proposal tracker: what it stores, answers and lists', () => {
  test('the stored ask is addressed to HOST with the origin, and the answer says to go on', () => {
    const { tracker, store } = setUp();
    expect(tracker.propose(proposal('6 * 7'))).toEqual({
      status: 'pending',
      proposalId: 'p1',
      resultName: 'answer',
      note: 'Sent to your host for approval. You will get a GRANTED or REJECTED notice; do not wait for it.',
    });
    tracker.propose(proposal('1', { origin: undefined }));
    expect(
      store.pending.map(ask => [ask.kind, ask.recipient, ask.description, ask.origin]),
    ).toEqual([
      ['proposal', 'HOST', '6 * 7', { number: '4', sender: 'alice' }],
      ['proposal', 'HOST', '1', undefined],
    ]);
  });

  test('a lost connection is no refusal: nothing is told, and the proposal still waits', async () => {
    const { tracker, asked, notices, settlers } = setUp();
    tracker.propose(proposal('6 * 7'));
    (await asked()).reject(Error('CapTP connection closed'));
    // A second proposal, granted after: once its notice is in, the first's failure was handled.
    tracker.propose(proposal('1 + 1'));
    await expect.poll(() => settlers.length).toBe(2);
    settlers[1]!.resolve(2);
    await expect.poll(() => notices.length).toBe(1);
    expect(notices[0]!.text).toMatch(/^GRANTED: .*p2/);
    expect(tracker.pendingSources()).toEqual(['6 * 7']);
  });

  test('pendingSources lists the proposals only, not the other asks of the same store', () => {
    const { tracker, asks } = setUp();
    asks.make('r', () => ({
      kind: 'request',
      recipient: 'bob',
      description: 'lend me',
      detail: {},
    }));
    tracker.propose(proposal('6 * 7'));
    expect(tracker.pendingSources()).toEqual(['6 * 7']);
  });

  test('a proposal granted while the agent restarted: the notice reads its result and reaches its origin', async () => {
    const powers = Far('powers', {
      lookup: (name: string) => `value of ${name}`,
      dismiss: () => {},
    }) as unknown as PowersRef;
    const notices: Notice[] = [];
    const queue = makeNoticeQueue(() => notices.push(...queue.take()));
    const tracker = makeProposalTracker({ powers, log: () => {}, notices: queue });
    await tracker.resume(
      {
        id: 'p9',
        kind: 'proposal',
        recipient: 'HOST',
        description: '6 * 7',
        origin: { number: '4', sender: 'alice' },
        detail: { codeNames: [], petNamePaths: [], resultName: 'answer' },
      },
      'fulfilled',
    );
    expect(notices).toHaveLength(1);
    expect(notices[0]!.origin).toEqual({ number: 4n, sender: 'alice' });
    expect(notices[0]!.text).toMatch(
      /^GRANTED: the host ran your proposal p9 \(6 \* 7\) while I restarted\. Result, kept as "answer": .*value of answer/,
    );
  });
});
