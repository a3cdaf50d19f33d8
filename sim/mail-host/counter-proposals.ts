/** Counter-proposals: the host answers an eval-proposal with code of its own. */
import { namePathFrom } from './pet-name.js';
import { makeProposalKit } from './eval-proposals.js';
import type { Agent } from './agents.js';
import type { MailBasics } from './mail-basics.js';
import type { EvalProposalReviewerMessage, FormulaId, NameOrPath } from './types.js';

/** What a counter-proposal changes. */
export interface ProposalChange {
  source: string;
  codeNames: readonly string[];
  petNamePaths: readonly (readonly string[])[];
  edgeNames: readonly string[];
  ids: readonly FormulaId[];
  workerName: string | undefined;
  resultName: string | undefined;
}

export const makeCounterProposals = (
  { table, agents, randomHex512, identifyAll }: MailBasics,
  mustGetProposal: (self: Agent, number: bigint) => EvalProposalReviewerMessage,
) => {
  /** Sends the proposer a counter-proposal: it gets a reviewer copy, we keep a proposer copy. */
  const counter = async (self: Agent, number: bigint, change: ProposalChange): Promise<void> => {
    const original = mustGetProposal(self, number);
    const proposer = agents.recipientFor(original.from, original.from);
    const { settled, responder } = makeProposalKit(table);
    const common = {
      messageId: randomHex512(),
      source: change.source,
      codeNames: change.codeNames,
      petNamePaths: change.petNamePaths,
      edgeNames: change.edgeNames,
      ids: change.ids,
      workerName: change.workerName || undefined,
      settled,
      // The daemon does not track a counter-proposal's result.
      resultId: Promise.resolve(undefined),
      result: Promise.resolve(undefined),
      from: self.handleId,
      to: original.from,
    };
    if (common.from !== common.to) {
      self.mailbox.deliver(
        harden({ type: 'eval-proposal-proposer', ...common, resultName: change.resultName }),
      );
    }
    proposer.mailbox.deliver(harden({ type: 'eval-proposal-reviewer', ...common, responder }));
  };

  /** The host's counterEvaluate: endowments named in the host's own namespace. */
  const counterEvaluate = async (
    self: Agent,
    number: bigint,
    source: string,
    codeNames: readonly string[],
    petNamesOrPaths: readonly NameOrPath[],
    workerName?: string,
    resultName?: readonly string[],
  ) => {
    const petNamePaths = harden(petNamesOrPaths.map(namePathFrom));
    if (petNamePaths.length !== codeNames.length) {
      throw Error(
        `Counter must have the same number of code names (${codeNames.length}) as pet names (${petNamePaths.length})`,
      );
    }
    const ids = await identifyAll(self, petNamePaths);
    await counter(self, number, {
      source,
      codeNames,
      petNamePaths,
      ids,
      edgeNames: harden(petNamePaths.map(path => path.join('.'))),
      workerName,
      resultName: resultName ? resultName.join('.') : undefined,
    });
  };

  return harden({ counter, counterEvaluate });
};
harden(makeCounterProposals);
