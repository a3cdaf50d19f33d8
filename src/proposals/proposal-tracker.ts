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
import { emptyAskStore, isDisconnection, makePendingAsks, originOfAsk, storedOrigin, type PendingAsks, type Settlement, type StoredAsk } from '../pending/pending-asks.js';

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
  /** Finishes a proposal made before a restart, once its own copy says how it ended. */
  resume(ask: StoredAsk, settlement: Settlement): Promise<void>;
}

/** What a stored proposal keeps to be finished after a restart. */
export const proposalDetail = (proposal: Proposal): Record<string, unknown> => ({
  resultName: proposal.resultName,
  codeNames: proposal.codeNames,
  petNamePaths: proposal.petNamePaths,
  ...(proposal.workerName === undefined ? {} : { workerName: proposal.workerName }),
});

/** The proposal a stored ask holds (its description is the source). */
export const storedProposal = (ask: StoredAsk): Proposal => {
  const { detail } = ask;
  return {
    source: typeof detail.source === 'string' ? detail.source : ask.description,
    codeNames: Array.isArray(detail.codeNames) ? (detail.codeNames as string[]) : [],
    petNamePaths: Array.isArray(detail.petNamePaths) ? (detail.petNamePaths as (string | string[])[]) : [],
    resultName: typeof detail.resultName === 'string' ? detail.resultName : '',
    workerName: typeof detail.workerName === 'string' ? detail.workerName : undefined,
    origin: originOfAsk(ask),
  };
};

/** The notice for a proposal that ended while the agent restarted and whose copy is gone. */
export const lostProposalText = (proposalId: string, preview: string, origin: Origin | undefined): string =>
  `UNKNOWN: I restarted while your proposal ${proposalId} (${preview}) waited for the host, and I can no longer tell whether it ran.\nNext: look for its result name with list, propose again only if it is still needed, and tell ${whomToTell(origin)}.`;


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
    if (entry.copyNumber !== undefined) dismissCopy(entry);
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
        // The daemon going away is no answer: the proposal stays stored for the next run.
        if (isDisconnection(error)) return;
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

  const resume: ProposalTracker['resume'] = async (ask, settlement) => {
    const proposal = storedProposal(ask);
    const preview = cut(proposal.source, SOURCE_PREVIEW_CHARS);
    const origin = proposal.origin;
    asks.settle(ask.id);
    let text: string;
    if (settlement === 'lost') text = lostProposalText(ask.id, preview, origin);
    else if (settlement === 'rejected') {
      text = `REJECTED: the host did not run your proposal ${ask.id} (${preview}); its reason did not reach me across my restart.\nNext: tell ${whomToTell(origin)}.`;
    } else {
      const result = await Promise.resolve(E(powers).lookup(proposal.resultName)).then(
        value => renderForModel(value),
        (error: unknown) => `(it ran, but "${proposal.resultName}" could not be read: ${error instanceof Error ? error.message : String(error)})`,
      );
      text = `GRANTED: the host ran your proposal ${ask.id} (${preview}) while I restarted. Result, kept as "${proposal.resultName}": ${cut(result, RESULT_PREVIEW_CHARS)}\nNext: tell ${whomToTell(origin)} what came out.`;
    }
    notices.push({ id: ask.id, text, origin });
  };

  return {
    propose,
    noteOwnCopy,
    resume,
    hasPendingFor: number => [...tracked.values()].some(entry => !entry.settled && entry.origin?.number === number),
    // Those of this run and those still followed from before a restart.
    pendingSources: () => asks.pending().filter(ask => ask.kind === 'proposal').map(ask => ask.description),
  };
};
