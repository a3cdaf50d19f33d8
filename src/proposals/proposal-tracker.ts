/**
 * Lal's eval-proposal tracker. `evaluate` hands the proposal to the daemon
 * and returns at once; when the host settles it, a GRANTED or REJECTED
 * notice is queued for the model (shown before its next call, or starting a
 * turn of its own when the agent is idle), and the agent's own
 * eval-proposal-proposer copy is dismissed (an undismissed one keeps the
 * mailbox from loading after a daemon restart).
 */
import { E } from '@endo/far';
import type { PowersRef } from '../guest-powers.js';
import { cut, type MessageRecord } from '../mail/message-record.js';
import { renderForModel } from '../encoding/render-for-model.js';
import type { Log } from '../log.js';
import type { NoticeQueue } from '../notices.js';
import {
  emptyAskStore,
  isDisconnection,
  makePendingAsks,
  storedOrigin,
  type PendingAsks,
  type Settlement,
  type StoredAsk,
} from '../pending/pending-asks.js';
import {
  grantedText,
  rejectedText,
  RESULT_PREVIEW_CHARS,
  resumedProposalNotice,
  SOURCE_PREVIEW_CHARS,
} from './proposal-notices.js';
import { proposalDetail, type Proposal } from './stored-proposal.js';

export type { Origin } from '../notices.js';
export { lostProposalText } from './proposal-notices.js';
export { proposalDetail, storedProposal, type Proposal } from './stored-proposal.js';

interface Tracked extends Proposal {
  proposalId: string;
  settled: boolean;
  /** Our own eval-proposal-proposer copy, once it has come by. */
  copyNumber: bigint | undefined;
}

export interface ProposalTracker {
  propose(proposal: Proposal): Readonly<Record<string, unknown>>;
  /** Called for each of the agent's own eval-proposal-proposer messages. */
  noteOwnCopy(message: MessageRecord): void;
  /** Whether a proposal made for this message is still waiting for the host. */
  hasPendingFor(number: bigint): boolean;
  /** The source of each proposal still waiting for the host. */
  pendingSources(): string[];
  /** Finishes a proposal made before a restart, once its own copy says how it ended. */
  resume(ask: StoredAsk, settlement: Settlement): Promise<void>;
}

const UNMATCHED_COPIES_KEPT = 64;

export const makeProposalTracker = (options: {
  powers: PowersRef;
  log: Log;
  notices: NoticeQueue;
  /** Where open proposals are kept over a restart (a store of their own when not given). */
  asks?: PendingAsks;
}): ProposalTracker => {
  const { powers, log, notices } = options;
  const asks = options.asks ?? makePendingAsks({ store: emptyAskStore(), powers, log });
  const tracked = new Map<string, Tracked>();
  // Copies that came by before their proposal was matched (or after it settled).
  const unmatchedCopies: MessageRecord[] = [];

  const dismissCopy = (entry: Tracked): void => {
    if (entry.copyNumber === undefined) return;
    const number = entry.copyNumber;
    E(powers)
      .dismiss(number)
      .then(
        () => tracked.delete(entry.proposalId),
        (error: unknown) => log(`could not dismiss proposal copy #${number}: ${String(error)}`),
      );
  };

  const matchCopy = (entry: Tracked, message: MessageRecord): boolean =>
    entry.copyNumber === undefined &&
    message.source === entry.source &&
    (message.resultName === undefined || message.resultName === entry.resultName);

  const settle = (entry: Tracked, text: string): void => {
    // This run has stopped: the next one follows the proposal through its copy, which must stay.
    if (asks.stopped()) return;
    entry.settled = true;
    asks.settle(entry.proposalId);
    // Once the outcome's notice is stored: until then a restart follows the proposal through its copy.
    if (entry.copyNumber !== undefined) asks.afterSave(() => dismissCopy(entry));
    notices.push({ id: entry.proposalId, text, origin: entry.origin });
  };

  const propose = (proposal: Proposal): Readonly<Record<string, unknown>> => {
    const proposalId = asks.reserve('p');
    asks.add({
      id: proposalId,
      kind: 'proposal',
      recipient: 'HOST',
      description: proposal.source,
      ...(proposal.origin === undefined ? {} : { origin: storedOrigin(proposal.origin)! }),
      detail: proposalDetail(proposal),
    });
    const entry: Tracked = { ...proposal, proposalId, settled: false, copyNumber: undefined };
    tracked.set(proposalId, entry);
    const preview = cut(proposal.source, SOURCE_PREVIEW_CHARS);
    // Not awaited: the host may take minutes, and the agent keeps serving mail meanwhile.
    Promise.resolve(
      E(powers).evaluate(
        proposal.workerName,
        proposal.source,
        proposal.codeNames,
        proposal.petNamePaths,
        proposal.resultName,
      ),
    ).then(
      async (result: unknown) => {
        const rendered = cut(await renderForModel(result), RESULT_PREVIEW_CHARS);
        settle(
          entry,
          grantedText(proposalId, preview, proposal.resultName, rendered, entry.origin),
        );
      },
      (error: unknown) => {
        // The daemon going away is no answer: the proposal stays stored for the next run.
        if (isDisconnection(error)) return;
        const reason = error instanceof Error ? error.message : String(error);
        settle(entry, rejectedText(proposalId, preview, reason, entry.origin));
      },
    );
    // The copy may already have come by.
    const waiting = unmatchedCopies.findIndex(message => matchCopy(entry, message));
    if (waiting !== -1) {
      const [message] = unmatchedCopies.splice(waiting, 1);
      entry.copyNumber = message?.number as bigint;
    }
    return harden({
      status: 'pending',
      proposalId,
      resultName: proposal.resultName,
      note: 'Sent to your host for approval. You will get a GRANTED or REJECTED notice; do not wait for it.',
    });
  };

  const noteOwnCopy = (message: MessageRecord): void => {
    if (typeof message.number !== 'bigint') return;
    for (const entry of tracked.values()) {
      if (matchCopy(entry, message)) {
        entry.copyNumber = message.number;
        if (entry.settled) dismissCopy(entry);
        return;
      }
    }
    unmatchedCopies.push(message);
    // A copy is matched within moments of its proposal; older ones (a previous run's) never will be.
    if (unmatchedCopies.length > UNMATCHED_COPIES_KEPT) unmatchedCopies.shift();
  };

  const resume: ProposalTracker['resume'] = async (ask, settlement) => {
    asks.settle(ask.id);
    const { text, origin } = await resumedProposalNotice(ask, settlement, powers);
    notices.push({ id: ask.id, text, origin });
  };

  return {
    propose,
    noteOwnCopy,
    resume,
    hasPendingFor: number =>
      [...tracked.values()].some(entry => !entry.settled && entry.origin?.number === number),
    // Those of this run and those still followed from before a restart.
    pendingSources: () =>
      asks
        .pending()
        .filter(ask => ask.kind === 'proposal')
        .map(ask => ask.description),
  };
};
