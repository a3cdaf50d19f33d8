/**
 * After a restart, each ask the previous run left pending goes back to the
 * tracker of its kind, which tells the model how it ended (as a notice
 * about the message it was made for).
 */
import type { ApprovalGate } from './approval-gate.js';
import type { ProposalTracker } from './proposal-tracker.js';
import type { RequestTracker } from './request-tracker.js';
import type { Settlement, StoredAsk } from './pending-asks.js';

export const finishEarlierAsk =
  (trackers: { requests: RequestTracker; approvals: ApprovalGate; proposals: ProposalTracker }) =>
  async (ask: StoredAsk, settlement: Settlement): Promise<void> => {
    if (ask.kind === 'request') await trackers.requests.resume(ask, settlement);
    else if (ask.kind === 'approval') await trackers.approvals.resume(ask, settlement);
    else await trackers.proposals.resume(ask, settlement);
  };
harden(finishEarlierAsk);
