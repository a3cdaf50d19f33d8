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
import { whomToTell, type NoticeQueue, type Origin } from '../notices.js';

export type { Origin } from '../notices.js';

const SOURCE_PREVIEW_CHARS = 100;
const RESULT_PREVIEW_CHARS = 2_000;


export interface Proposal {
  source: string;
  codeNames: string[];
  petNamePaths: (string | string[])[];
  resultName: string;
  workerName: string | undefined;
  origin: Origin | undefined;
}

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
}

const UNMATCHED_COPIES_KEPT = 64;

export const makeProposalTracker = (options: {
  powers: PowersRef;
  log: Log;
  notices: NoticeQueue;
}): ProposalTracker => {
  const { powers, log, notices } = options;
  const tracked = new Map<string, Tracked>();
  // Copies that came by before their proposal was matched (or after it settled).
  const unmatchedCopies: MessageRecord[] = [];
  let nextId = 1;

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
    entry.settled = true;
    if (entry.copyNumber !== undefined) dismissCopy(entry);
    notices.push({ id: entry.proposalId, text, origin: entry.origin });
  };

  const propose = (proposal: Proposal): Readonly<Record<string, unknown>> => {
    const proposalId = `p${nextId}`;
    nextId += 1;
    const entry: Tracked = { ...proposal, proposalId, settled: false, copyNumber: undefined };
    tracked.set(proposalId, entry);
    const preview = cut(proposal.source, SOURCE_PREVIEW_CHARS);
    // Not awaited: the host may take minutes, and the agent keeps serving mail meanwhile.
    Promise.resolve(
      E(powers).evaluate(proposal.workerName, proposal.source, proposal.codeNames, proposal.petNamePaths, proposal.resultName),
    ).then(
      async (result: unknown) => {
        const rendered = cut(await renderForModel(result), RESULT_PREVIEW_CHARS);
        settle(
          entry,
          `GRANTED: the host ran your proposal ${proposalId} (${preview}). Result, kept as "${proposal.resultName}": ${rendered}\nNext: tell ${whomToTell(entry.origin)} what came out.`,
        );
      },
      (error: unknown) => {
        const reason = error instanceof Error ? error.message : String(error);
        settle(
          entry,
          `REJECTED: the host did not run your proposal ${proposalId} (${preview}). Reason: ${reason}\nNext: tell ${whomToTell(entry.origin)}; change the code and propose again only if the reason invites it.`,
        );
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

  return {
    propose,
    noteOwnCopy,
    hasPendingFor: number => [...tracked.values()].some(entry => !entry.settled && entry.origin?.number === number),
    pendingSources: () => [...tracked.values()].filter(entry => !entry.settled).map(entry => entry.source),
  };
};
