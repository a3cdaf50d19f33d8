/** A proposal as the tracker keeps it, and as it is stored to be finished after a restart. */
import type { Origin } from '../mail/origin.js';
import { originOfAsk, type StoredAsk } from './pending-asks.js';

export interface Proposal {
  source: string;
  codeNames: string[];
  petNamePaths: (string | string[])[];
  resultName: string;
  workerName: string | undefined;
  origin: Origin | undefined;
}

/** What a stored proposal keeps to be finished after a restart. */
export const proposalDetail = (proposal: Proposal): Record<string, unknown> => ({
  resultName: proposal.resultName,
  codeNames: proposal.codeNames,
  petNamePaths: proposal.petNamePaths,
  ...(proposal.workerName === undefined ? {} : { workerName: proposal.workerName }),
});
harden(proposalDetail);

/** The proposal a stored ask holds (its description is the source). */
export const storedProposal = (ask: StoredAsk): Proposal => {
  const { detail } = ask;
  return {
    source: typeof detail.source === 'string' ? detail.source : ask.description,
    codeNames: Array.isArray(detail.codeNames) ? (detail.codeNames as string[]) : [],
    petNamePaths: Array.isArray(detail.petNamePaths)
      ? (detail.petNamePaths as (string | string[])[])
      : [],
    resultName: typeof detail.resultName === 'string' ? detail.resultName : '',
    workerName: typeof detail.workerName === 'string' ? detail.workerName : undefined,
    origin: originOfAsk(ask),
  };
};
harden(storedProposal);
