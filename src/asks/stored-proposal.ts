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
  /** Where the names above are, for a turn serving a party other than the HOST (src/parties/): its own directory. */
  directory?: readonly string[];
}

/** A party's name as a path in the guest's directory: inside its own directory when it has one. */
export const placed = (
  directory: readonly string[] | undefined,
  nameOrPath: string | readonly string[],
): string | string[] => {
  if (directory === undefined) return typeof nameOrPath === 'string' ? nameOrPath : [...nameOrPath];
  return [...directory, ...(typeof nameOrPath === 'string' ? nameOrPath.split('/') : nameOrPath)];
};
harden(placed);

/** What the daemon's evaluate is given: the endowments and the result's name where the proposal's party keeps them. */
export const evaluateArgs = (proposal: Proposal): unknown[] => [
  proposal.workerName,
  proposal.source,
  proposal.codeNames,
  proposal.petNamePaths.map(path => placed(proposal.directory, path)),
  placed(proposal.directory, proposal.resultName),
];
harden(evaluateArgs);

/** What a stored proposal keeps to be finished after a restart. */
export const proposalDetail = (proposal: Proposal): Record<string, unknown> => ({
  resultName: proposal.resultName,
  codeNames: proposal.codeNames,
  petNamePaths: proposal.petNamePaths,
  ...(proposal.workerName === undefined ? {} : { workerName: proposal.workerName }),
  ...(proposal.directory === undefined ? {} : { directory: [...proposal.directory] }),
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
    ...(Array.isArray(detail.directory)
      ? { directory: (detail.directory as unknown[]).map(String) }
      : {}),
  };
};
harden(storedProposal);
