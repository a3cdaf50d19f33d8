/**
 * Eval-proposals at f0a46042a: a guest's evaluate() proposes code to its
 * host, which grants it (the code runs with endowments from the proposer's
 * namespace) or rejects it.
 */
import { evaluateSource } from './evaluate-source.js';
import { namePathFrom, quote } from './pet-name.js';
import { makeResponseKit } from './promise-formula.js';
import type { Agent } from './agents.js';
import type { FormulaTable } from './formula-table.js';
import type { MailBasics } from './mail-basics.js';
import type { EvalProposalReviewerMessage, NameOrPath } from './types.js';

/** The shared promises of a proposal: settlement, result id and result. */
export const makeProposalKit = (table: FormulaTable) => {
  const { responseId, settled, responder } = makeResponseKit();
  const resultId = responseId.catch(() => undefined);
  const result = responseId.then(id => table.provide(id)).catch(() => undefined);
  return { responseId, settled, responder, resultId, result };
};
harden(makeProposalKit);

export const makeEvalProposals = ({
  table,
  agents,
  randomHex512,
  mustGet,
  identifyAll,
}: MailBasics) => {
  /** A guest's evaluate(): an eval-proposal to its host that settles when the host answers. */
  const propose = async (
    self: Agent,
    workerName: string | undefined,
    source: string,
    codeNames: readonly string[],
    petNamesOrPaths: readonly NameOrPath[],
    resultNameOrPath?: NameOrPath,
  ): Promise<unknown> => {
    const petNamePaths = harden(petNamesOrPaths.map(namePathFrom));
    if (petNamePaths.length !== codeNames.length) {
      throw Error(
        `Evaluation must have the same number of code names (${codeNames.length}) as pet names (${petNamePaths.length})`,
      );
    }
    const ids = await identifyAll(self, petNamePaths);
    const edgeNames = harden(petNamePaths.map(path => path.join('.')));
    const resultName = resultNameOrPath ? namePathFrom(resultNameOrPath).join('.') : undefined;
    const toId = self.hostHandleId;
    const host = agents.recipientFor(toId, 'HOST');
    const { responseId, settled, responder, resultId, result } = makeProposalKit(table);
    const common = {
      messageId: randomHex512(),
      source,
      codeNames,
      petNamePaths,
      edgeNames,
      ids,
      workerName: workerName || undefined,
      settled,
      resultId,
      result,
      from: self.handleId,
      to: toId,
    };
    // The proposer's copy arrives first, so it is there before the host sees the proposal.
    if (common.from !== common.to) {
      self.mailbox.deliver(harden({ type: 'eval-proposal-proposer', ...common, resultName }));
    }
    host.mailbox.deliver(harden({ type: 'eval-proposal-reviewer', ...common, responder }));
    const id = await responseId;
    if (resultName) await self.directory.write(resultName.split('.'), id);
    return table.provide(id);
  };

  const mustGetProposal = (self: Agent, number: bigint): EvalProposalReviewerMessage => {
    const record = mustGet(self, number);
    if (record.type !== 'eval-proposal-reviewer') {
      throw Error(`Message ${number} is not an eval-proposal, it is ${quote(record.type)}`);
    }
    return record;
  };

  /** Runs the proposed code with endowments from the proposer's namespace; answers the proposal. */
  const grant = async (self: Agent, number: bigint): Promise<unknown> => {
    const proposal = mustGetProposal(self, number);
    const proposer = agents.agentFor(proposal.from) ?? self;
    const values = await Promise.all(
      proposal.petNamePaths.map(async path => {
        if (path.length === 1) {
          const id = await proposer.directory.identify(path[0] as string);
          if (id === undefined)
            throw Error(`Unknown pet name ${quote(path[0])} in guest namespace`);
          return table.provide(id);
        }
        return proposer.directory.lookup(path);
      }),
    );
    const value = await evaluateSource(proposal.source, proposal.codeNames, values);
    const id = table.formulate({ type: 'eval', provide: () => value });
    table.remember(value, id);
    proposal.responder.resolveWithId(id);
    return value;
  };

  /** Answers a proposal with a rejection (what a reviewer's responder can do; the CLI's reject cannot). */
  const rejectProposal = async (
    self: Agent,
    number: bigint,
    reason = 'Rejected',
  ): Promise<void> => {
    const proposal = mustGetProposal(self, number);
    const rejection = Promise.reject(harden(Error(reason)));
    rejection.catch(() => {});
    proposal.responder.resolveWithId(harden(rejection));
  };

  return harden({ propose, mustGetProposal, grant, rejectProposal });
};
harden(makeEvalProposals);
