/**
 * `evaluate` on the newest daemon, where the daemon runs a guest's code at
 * once and asks nobody: the agent asks its host instead. The code (source and
 * endowments by pet name) goes to the host as a request; only when the host
 * resolves it does the agent call the daemon's `evaluate`, and a rejection
 * reaches the model with the host's reason. The same flow and notices as the
 * eval-proposals of f0a46042a (proposals/proposal-tracker.ts): `pending` at
 * once, then GRANTED or REJECTED. With `direct` (LAL_DIRECT_EVAL) the code
 * runs without asking, as the newest daemon intends.
 *
 * `askHostApproval` is the one step another approval (a tool policy, say) can
 * share: put a description to the host, learn yes or no with the reason.
 */
import { E } from '@endo/far';
import type { Log } from '../log.js';
import { renderForModel } from '../encoding/render-for-model.js';
import { cut } from '../mail/message-record.js';
import { whomToTell, type NoticeQueue } from '../notices.js';
import type { Proposal, ProposalTracker } from '../proposals/proposal-tracker.js';

const SOURCE_PREVIEW_CHARS = 100;
const RESULT_PREVIEW_CHARS = 2_000;
const REQUEST_SOURCE_CHARS = 4_000;

export type Verdict = { approved: true } | { approved: false; reason: string };

const messageOf = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/** Asks the host (a request it resolves to agree, rejects to refuse); settles when it answers. */
export const askHostApproval = async (powers: unknown, hostName: string, description: string): Promise<Verdict> => {
  try {
    await E(powers as { request(to: string, description: string): unknown }).request(hostName, description);
    return harden({ approved: true });
  } catch (error) {
    return harden({ approved: false, reason: messageOf(error) });
  }
};

/** What the host reads: the whole code and what it is given, and how to answer. */
export const describeCodeRequest = (who: string, proposal: Proposal): string => {
  const endowments = proposal.codeNames.map((codeName, index) => {
    const path = proposal.petNamePaths[index];
    return `${codeName} <- ${Array.isArray(path) ? path.join('/') : String(path)}`;
  });
  return [
    `${who} asks to run this code (kept as "${proposal.resultName}"):`,
    cut(proposal.source, REQUEST_SOURCE_CHARS),
    `Endowments: ${endowments.join(', ') || 'none'}`,
    'Resolve this request (with any value) to let it run; reject it to refuse, and your reason is passed on.',
  ].join('\n');
};

export const readDirectEvaluation = (env: Readonly<Record<string, string | undefined>>): boolean =>
  ['1', 'true', 'yes', 'on'].includes((env.LAL_DIRECT_EVAL ?? '').trim().toLowerCase());

export const makeHostApprovedEvaluation = (options: {
  powers: unknown;
  log: Log;
  notices: NoticeQueue;
  hostName: string;
  /** Who the agent is, for the host's request. */
  who: string;
  direct: boolean;
}): ProposalTracker => {
  const { powers, notices, hostName, who, direct } = options;
  const pending = new Map<string, Proposal>();
  let nextId = 1;

  const run = (proposal: Proposal) =>
    E(powers as { evaluate(...args: unknown[]): unknown }).evaluate(
      proposal.workerName,
      proposal.source,
      proposal.codeNames,
      proposal.petNamePaths,
      proposal.resultName,
    );

  const propose = (proposal: Proposal): Readonly<Record<string, unknown>> => {
    const proposalId = `p${nextId}`;
    nextId += 1;
    pending.set(proposalId, proposal);
    const preview = cut(proposal.source, SOURCE_PREVIEW_CHARS);
    const settle = (text: string) => {
      pending.delete(proposalId);
      notices.push({ id: proposalId, text, origin: proposal.origin });
    };
    const approval = direct ? Promise.resolve<Verdict>({ approved: true }) : askHostApproval(powers, hostName, describeCodeRequest(who, proposal));
    // Not awaited: the host may take minutes, and the agent keeps serving mail meanwhile.
    void approval.then(async verdict => {
      if (!verdict.approved) {
        settle(
          `REJECTED: ${hostName} did not run your proposal ${proposalId} (${preview}). Reason: ${verdict.reason}\nNext: tell ${whomToTell(proposal.origin)}; change the code and propose again only if the reason invites it.`,
        );
        return;
      }
      try {
        const result = await run(proposal);
        const rendered = cut(await renderForModel(result), RESULT_PREVIEW_CHARS);
        const by = direct ? 'the daemon ran' : `${hostName} agreed and the daemon ran`;
        settle(
          `GRANTED: ${by} your proposal ${proposalId} (${preview}). Result, kept as "${proposal.resultName}": ${rendered}\nNext: tell ${whomToTell(proposal.origin)} what came out.`,
        );
      } catch (error) {
        settle(
          `REJECTED: your proposal ${proposalId} (${preview}) was approved but failed when it ran: ${messageOf(error)}\nNext: tell ${whomToTell(proposal.origin)}; fix the code and propose again if it is worth it.`,
        );
      }
    });
    return harden({
      status: 'pending',
      proposalId,
      resultName: proposal.resultName,
      note: direct
        ? 'Running. You will get a GRANTED or REJECTED notice; do not wait for it.'
        : `Sent to ${hostName} for approval. You will get a GRANTED or REJECTED notice; do not wait for it.`,
    });
  };

  return {
    propose,
    // The newest daemon has no proposer copies: its own copy of the request is an ordinary sent message.
    noteOwnCopy: () => {},
    hasPendingFor: number => [...pending.values()].some(proposal => proposal.origin?.number === number),
    pendingSources: () => [...pending.values()].map(proposal => proposal.source),
  };
};
