/**
 * The proposal tracker as a module, on the paths the daemon's timing makes
 * rare: the agent's own copy of a proposal coming by before the proposal is
 * tracked, or after it settled (both dismissed once settled), a copy that
 * matches nothing (ignored), a failed dismissal (logged, not thrown), and a
 * rejection that is not an Error. The usual paths are in
 * agent-proposals.test.ts.
 */
import { describe, expect, test } from 'vitest';
import { Far } from '@endo/far';
import { makeProposalTracker, type Proposal } from '../src/proposals/proposal-tracker.js';
import { makeNoticeQueue, type Notice } from '../src/notices.js';
import type { PowersRef } from '../src/guest-powers.js';

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
  const tracker = makeProposalTracker({
    powers: host.powers,
    log: line => logs.push(line),
    notices: queue,
  });
  // The host sees the proposal on a later turn (an eventual send): wait for it.
  const asked = async () => {
    await expect.poll(() => host.settlers.length).toBe(1);
    return host.settlers[0]!;
  };
  return { ...host, notices, logs, tracker, asked };
};

describe('proposal tracker', () => {
  test('a copy that came by before its proposal was tracked is matched and dismissed once granted', async () => {
    const { tracker, asked, dismissed, notices } = setUp();
    tracker.noteOwnCopy({
      type: 'eval-proposal-proposer',
      number: 11n,
      source: '1 + 1',
      resultName: 'answer',
    });
    expect(tracker.propose(proposal('1 + 1'))).toMatchObject({
      status: 'pending',
      proposalId: 'p1',
    });
    expect(tracker.hasPendingFor(4n)).toBe(true);
    expect(tracker.pendingSources()).toEqual(['1 + 1']);
    (await asked()).resolve(2);
    await expect.poll(() => dismissed).toEqual([11n]);
    expect(notices.map(notice => notice.text.split(':')[0])).toEqual(['GRANTED']);
    expect(tracker.hasPendingFor(4n)).toBe(false);
    expect(tracker.pendingSources()).toEqual([]);
  });

  test('a copy that comes by after its proposal settled is dismissed at once', async () => {
    const { tracker, asked, dismissed, notices } = setUp();
    tracker.propose(proposal('2 + 2'));
    (await asked()).reject('the host said no');
    await expect.poll(() => notices.length).toBe(1);
    // A rejection that is not an Error is shown as its text.
    expect(notices[0]!.text).toMatch(/^REJECTED: .* Reason: the host said no\n/);
    tracker.noteOwnCopy({ type: 'eval-proposal-proposer', number: 12n, source: '2 + 2' });
    await expect.poll(() => dismissed).toEqual([12n]);
  });

  test('a copy of another source or result name is not matched; one without a number is ignored', async () => {
    const { tracker, asked, dismissed } = setUp();
    tracker.propose(proposal('3 + 3'));
    tracker.noteOwnCopy({
      type: 'eval-proposal-proposer',
      number: 13n,
      source: '3 + 3',
      resultName: 'other',
    });
    tracker.noteOwnCopy({ type: 'eval-proposal-proposer', number: 14n, source: '4 + 4' });
    tracker.noteOwnCopy({ type: 'eval-proposal-proposer', number: 'x', source: '3 + 3' });
    (await asked()).resolve(6);
    // The matching copy comes last; only it is dismissed.
    tracker.noteOwnCopy({ type: 'eval-proposal-proposer', number: 15n, source: '3 + 3' });
    await expect.poll(() => dismissed).toEqual([15n]);
  });

  test('a dismissal that fails is logged and the proposal stays settled', async () => {
    const { tracker, asked, logs } = setUp({ dismissFails: true });
    tracker.noteOwnCopy({ type: 'eval-proposal-proposer', number: 16n, source: '5' });
    tracker.propose(proposal('5'));
    (await asked()).resolve(5);
    await expect
      .poll(() => logs)
      .toEqual([expect.stringMatching(/^could not dismiss proposal copy #16: .*no such message/)]);
    expect(tracker.pendingSources()).toEqual([]);
  });
});
