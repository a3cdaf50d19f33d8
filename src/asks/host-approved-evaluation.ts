/**
 * `evaluate` on the newest daemon, where the daemon runs a guest's code at
 * once and asks nobody: the agent asks its host instead. The code (source and
 * endowments by pet name) goes to the host as a request; only when the host
 * resolves it does the agent call the daemon's `evaluate`, and a rejection
 * reaches the model with the host's reason. The same flow and notices as the
 * eval-proposals of f0a46042a (./proposal-tracker.ts): `pending` at
 * once, then GRANTED or REJECTED. With `direct` (LAL_DIRECT_EVAL) the code
 * runs without asking, as the newest daemon intends.
 *
 * `askHostApproval` is the one step another approval (a tool policy, say) can
 * share: put a description to the host, learn yes or no with the reason.
 */
import { E } from '@endo/far';
import { showHidden } from '../encoding/show-hidden.js';
import type { Log } from '../log/log.js';
import { renderForModel } from '../encoding/render-for-model.js';
import { cut } from '../mail/message-record.js';
import { whomToTell, type NoticeQueue } from '../mail/origin.js';
import {
  notRunProposalText,
  proposalDetail,
  storedProposal,
  type Proposal,
  type ProposalTracker,
} from './proposal-tracker.js';
import {
  emptyAskStore,
  isDisconnection,
  makePendingAsks,
  storedOrigin,
  type PendingAsks,
} from './pending-asks.js';
import { evaluateArgs } from './stored-proposal.js';
import { grantedText, rejectedText } from './proposal-notices.js';
import { describeError } from '../../providers/describe-error.js';

const SOURCE_PREVIEW_CHARS = 100;

/** How a notice names a proposal's code: its start. */
const previewOf = (proposal: Proposal): string => cut(proposal.source, SOURCE_PREVIEW_CHARS);
const RESULT_PREVIEW_CHARS = 2_000;

type Verdict = { approved: true } | { approved: false; reason: string };

/** Asks the host (a request it resolves to agree, rejects to refuse); settles when it answers. */
const askHostApproval = async (
  powers: unknown,
  hostName: string,
  description: string,
): Promise<Verdict> => {
  try {
    await E(powers as { request(to: string, description: string): unknown }).request(
      hostName,
      description,
    );
    return harden({ approved: true });
  } catch (error) {
    return harden({ approved: false, reason: describeError(error) });
  }
};

const endowmentsOf = (proposal: Proposal): string =>
  proposal.codeNames
    .map((codeName, index) => {
      const path = proposal.petNamePaths[index];
      return `${codeName} <- ${Array.isArray(path) ? path.join('/') : String(path)}`;
    })
    .join(', ') || 'none';

/** A Markdown fence longer than any run of backticks in the code, so the code cannot end it. */
const fenceFor = (source: string): string =>
  '`'.repeat(Math.max(3, ...[...source.matchAll(/`+/g)].map(run => run[0].length + 1)));

/**
 * What the host reads before it decides: the whole code in a code block, what
 * it is given and where its result goes, sent just before the request (Endo's
 * chat renders a message as Markdown, but a request's description through
 * JSON.stringify, where code would show as one line of `\n` and `\"`).
 */
const describeCodeForHost = (who: string, proposal: Proposal): string => {
  // Hidden characters shown escaped, so the code read is the code that runs (issue 30).
  const shown = showHidden(proposal.source);
  const fence = fenceFor(shown);
  return [
    `${servingWhom(proposal, who)} asks to run this code; its result is kept as \`${proposal.resultName}\`:`,
    '',
    `${fence}js`,
    // Whole: the host approves the code it reads, and that code is what runs.
    shown,
    fence,
    ...(shown === proposal.source
      ? []
      : [
          '',
          'Characters that would hide or reorder text are shown as \\u{…}: the code holds them.',
        ]),
    '',
    `Endowments: ${endowmentsOf(proposal)}`,
    '',
    'Answer the request that follows: resolve it to run the code, reject it (with a reason) to refuse.',
  ].join('\n');
};

/** Whom the code is run for, first in what the host reads, then who asks: one sentence. */
const servingWhom = ({ origin }: Proposal, who: string): string =>
  origin === undefined
    ? who
    : `While serving message #${origin.number} from ${origin.sender}, ${who.charAt(0).toLowerCase()}${who.slice(1)}`;

/** The request itself: one short line, with nothing the chat would show escaped. */
const describeCodeRequest = (who: string, proposal: Proposal, proposalId: string): string =>
  showHidden(
    `${servingWhom(proposal, who)} asks to run the code it just sent (${proposalId}; endowments: ${endowmentsOf(proposal)}; result: ${proposal.resultName}). To run it, resolve with a stored value's name (endo store --text yes --name yes); reject to refuse.`.replace(
      /["\\\n\t]/g,
      ' ',
    ),
  );

/**
 * What a host's program (the terminal simulator) reads back from the two
 * messages above, written here and nowhere else: the code of a message
 * `describeCodeForHost` wrote, and the endowments and result name of a
 * request `describeCodeRequest` wrote. Undefined for any other text.
 */
export const readCodeForHost = (text: string): string | undefined =>
  /asks to run this code; its result is kept as `[^`\n]*`:\n\n(`{3,})js\n([\s\S]*?)\n\1(?:\n|$)/.exec(
    text,
  )?.[2];
harden(readCodeForHost);

export const readCodeRequest = (
  description: string,
): { endowments: string; resultName: string; proposalId?: string } | undefined => {
  // A request from before the agent named its proposal in it (kept over an upgrade) has no id.
  const found =
    /asks to run the code it just sent \((?:(p\d+); )?endowments: (.*?); result: (.*?)\)\. To run it, resolve /.exec(
      description,
    );
  if (found === null) return undefined;
  const [, proposalId, endowments, resultName] = found;
  return harden({
    endowments: endowments!,
    resultName: resultName!,
    ...(proposalId === undefined ? {} : { proposalId }),
  });
};
harden(readCodeRequest);

/** Sends the host the code to read; a failure is logged, and the request still goes. */
const showCodeToHost = (powers: unknown, hostName: string, text: string, log: Log) =>
  Promise.resolve(
    E(powers as { send(...args: unknown[]): unknown }).send(hostName, [text], [], []),
  ).then(
    () => undefined,
    (error: unknown) => log(`could not show ${hostName} the code: ${describeError(error)}`),
  );

export const makeHostApprovedEvaluation = (options: {
  powers: unknown;
  log: Log;
  notices: NoticeQueue;
  hostName: string;
  /** Who the agent is, for the host's request. */
  who: string;
  direct: boolean;
  /** Where open asks are kept over a restart (a store of their own when not given). */
  asks?: PendingAsks;
}): ProposalTracker => {
  const { powers, notices, hostName, who, direct } = options;
  const asks =
    options.asks ??
    makePendingAsks({ store: emptyAskStore(), powers: powers as never, log: options.log });

  const run = (proposal: Proposal) =>
    E(powers as { evaluate(...args: unknown[]): unknown }).evaluate(...evaluateArgs(proposal));

  const settle = (proposalId: string, proposal: Proposal, text: string) => {
    notices.push({ id: proposalId, text, origin: proposal.origin });
    asks.told(proposalId);
  };

  /** Once the host said yes (the ask settled): runs the code and tells the model what came out. */
  const runApproved = async (proposalId: string, proposal: Proposal) => {
    const preview = previewOf(proposal);
    // Once the store says it is running: a restart meanwhile does not run it again.
    await new Promise<void>(resolve => asks.afterSave(resolve));
    const settleWith = (text: string) => settle(proposalId, proposal, text);
    try {
      const result = await run(proposal);
      const rendered = cut(await renderForModel(result), RESULT_PREVIEW_CHARS);
      const by = direct ? 'the daemon ran' : `${hostName} agreed and the daemon ran`;
      settleWith(
        grantedText(proposalId, preview, proposal.resultName, rendered, proposal.origin, by),
      );
    } catch (error) {
      settleWith(
        `REJECTED: your proposal ${proposalId} (${preview}) was approved but failed when it ran: ${describeError(error)}\nNext: tell ${whomToTell(proposal.origin)}; fix the code and propose again if it is worth it.`,
      );
    }
  };

  const rejected = (proposalId: string, proposal: Proposal, reason: string) =>
    settle(
      proposalId,
      proposal,
      rejectedText(proposalId, previewOf(proposal), reason, proposal.origin, hostName),
    );

  const propose = (proposal: Proposal): Readonly<Record<string, unknown>> => {
    const proposalId = asks.make('p', id => ({
      kind: 'evaluation',
      recipient: hostName,
      description: describeCodeRequest(who, proposal, id),
      ...(proposal.origin === undefined ? {} : { origin: storedOrigin(proposal.origin)! }),
      detail: { ...proposalDetail(proposal), source: proposal.source },
    }));
    if (direct) {
      // Nobody is asked: the ask is settled at once, and pending while the code runs.
      asks.sent(proposalId);
      if (asks.answer(proposalId, 'yes') === 'act') void runApproved(proposalId, proposal);
    } else {
      const description = describeCodeRequest(who, proposal, proposalId);
      // Not awaited: the host may take minutes, and the agent keeps serving mail meanwhile.
      // The code goes first, as a message the chat renders, then the one-line request about it.
      void showCodeToHost(powers, hostName, describeCodeForHost(who, proposal), options.log)
        .then(() => askHostApproval(powers, hostName, description))
        .then(verdict => {
          if (verdict.approved) {
            // Acted on once, and only while this run serves: after a stop the next run follows it.
            if (asks.answer(proposalId, 'yes') === 'act') return runApproved(proposalId, proposal);
            return undefined;
          }
          // The daemon going away is no answer: the ask keeps waiting.
          if (isDisconnection(verdict.reason)) asks.disconnected(proposalId);
          else if (asks.answer(proposalId, 'no') === 'refuse')
            rejected(proposalId, proposal, verdict.reason);
          return undefined;
        });
      asks.sent(proposalId);
    }
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
    pendingSources: () =>
      asks
        .pending()
        .filter(ask => ask.kind === 'evaluation')
        .map(ask => String(ask.detail.source ?? ask.description)),
    async resume(ask, settlement) {
      const proposal = storedProposal(ask);
      const preview = previewOf(proposal);
      if (settlement === 'fulfilled') await runApproved(ask.id, proposal);
      else if (settlement === 'rejected')
        rejected(
          ask.id,
          proposal,
          'refused (the reason did not reach me: I learnt the answer from my copy of the request, which keeps only that it was refused)',
        );
      else if (settlement === 'interrupted')
        settle(
          ask.id,
          proposal,
          `UNKNOWN: your proposal ${ask.id} (${preview}) was running when I restarted, and I cannot tell whether it finished.\nNext: look for its result name "${proposal.resultName}" with list, propose again only if it is still needed, and tell ${whomToTell(proposal.origin)}.`,
        );
      // Its approval never reached the agent, which runs approved code itself: it did not run.
      else
        settle(
          ask.id,
          proposal,
          notRunProposalText(
            ask.id,
            preview,
            'no approval of it reached me, and I am the one who runs approved code',
            proposal.origin,
          ),
        );
    },
  };
};
harden(makeHostApprovedEvaluation);
