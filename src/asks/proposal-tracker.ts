/**
 * Lal's eval-proposal tracker. `evaluate` hands the proposal to the daemon
 * and returns at once; when the host settles it, a GRANTED or REJECTED
 * notice is queued for the model (shown before its next call, or starting a
 * turn of its own when the agent is idle), and the agent's own
 * eval-proposal-proposer copy is dismissed (an undismissed one keeps the
 * mailbox from loading after a daemon restart).
 */
import { E } from '@endo/far';
import type { PowersRef } from '../daemon/guest-powers.js';
import { cut } from '../mail/message-record.js';
import { renderForModel } from '../encoding/render-for-model.js';
import type { Log } from '../log/log.js';
import type { NoticeQueue, Origin } from '../mail/origin.js';
import {
  emptyAskStore,
  isDisconnection,
  makePendingAsks,
  storedOrigin,
  type PendingAsks,
  type Settlement,
  type StoredAsk,
} from './pending-asks.js';
import {
  grantedText,
  rejectedText,
  RESULT_PREVIEW_CHARS,
  resumedProposalNotice,
  SOURCE_PREVIEW_CHARS,
} from './proposal-notices.js';
import { evaluateArgs, proposalDetail, type Proposal } from './stored-proposal.js';
import { describeError } from '../../providers/describe-error.js';

// Re-exports: each value is hardened in the module that defines it; types have nothing at run time.
/* eslint-disable @endo/harden-exports */
export type { Origin } from '../mail/origin.js';
export { notRunProposalText } from './proposal-notices.js';
export { proposalDetail, storedProposal, type Proposal } from './stored-proposal.js';
/* eslint-enable @endo/harden-exports */

export interface ProposalTracker {
  propose(proposal: Proposal): Readonly<Record<string, unknown>>;
  /** The source of each proposal still waiting for the host. */
  pendingSources(): string[];
  /** Finishes a proposal made before a restart, once its own copy says how it ended. */
  resume(ask: StoredAsk, settlement: Settlement): Promise<void>;
}

export const makeProposalTracker = (options: {
  powers: PowersRef;
  log: Log;
  notices: NoticeQueue;
  /** Where open proposals are kept over a restart (a store of their own when not given). */
  asks?: PendingAsks;
}): ProposalTracker => {
  const { powers, log, notices } = options;
  const asks = options.asks ?? makePendingAsks({ store: emptyAskStore(), powers, log });

  const tell = (proposalId: string, text: string, origin: Origin | undefined) => {
    notices.push({ id: proposalId, text, origin });
    // Its proposer copy goes once the notice is stored (an undismissed one keeps the mailbox from loading after a daemon restart).
    asks.told(proposalId);
  };

  const propose = (proposal: Proposal): Readonly<Record<string, unknown>> => {
    const proposalId = asks.make('p', () => ({
      kind: 'proposal',
      recipient: 'HOST',
      description: proposal.source,
      ...(proposal.origin === undefined ? {} : { origin: storedOrigin(proposal.origin)! }),
      detail: proposalDetail(proposal),
    }));
    const preview = cut(proposal.source, SOURCE_PREVIEW_CHARS);
    // Not awaited: the host may take minutes, and the agent keeps serving mail meanwhile.
    Promise.resolve(
      E(powers as unknown as { evaluate(...args: unknown[]): unknown }).evaluate(
        ...evaluateArgs(proposal),
      ),
    ).then(
      async (result: unknown) => {
        if (asks.answer(proposalId, 'yes') !== 'act') return;
        const rendered = cut(await renderForModel(result), RESULT_PREVIEW_CHARS);
        tell(
          proposalId,
          grantedText(proposalId, preview, proposal.resultName, rendered, proposal.origin),
          proposal.origin,
        );
      },
      (error: unknown) => {
        // The daemon going away is no answer: the proposal keeps waiting.
        if (isDisconnection(error)) {
          asks.disconnected(proposalId);
          return;
        }
        if (asks.answer(proposalId, 'no') !== 'refuse') return;
        const reason = describeError(error);
        tell(
          proposalId,
          rejectedText(proposalId, preview, reason, proposal.origin),
          proposal.origin,
        );
      },
    );
    asks.sent(proposalId);
    return harden({
      status: 'pending',
      proposalId,
      resultName: proposal.resultName,
      note: 'Sent to your host for approval. You will get a GRANTED or REJECTED notice; do not wait for it.',
    });
  };

  const resume: ProposalTracker['resume'] = async (ask, settlement) => {
    const { text, origin } = await resumedProposalNotice(ask, settlement, powers);
    tell(ask.id, text, origin);
  };

  return {
    propose,
    resume,
    // Those of this run and those still followed from before a restart.
    pendingSources: () =>
      asks
        .pending()
        .filter(ask => ask.kind === 'proposal')
        .map(ask => ask.description),
  };
};
harden(makeProposalTracker);
