/** The host's answers to eval-proposals, as the tests give them: grant, reject, counter-propose. */
import type { Agent } from './agents.js';
import type { MailOps } from './mail-ops.js';
import type { CounterProposal } from './types.js';

export const makeHostReview = (host: Agent, mail: MailOps) => ({
  grant: (number: bigint) => mail.grant(host, number),
  rejectProposal: (number: bigint, reason?: string) => mail.rejectProposal(host, number, reason),
  /** Without code names or paths, the counter-proposal keeps the original's endowments. */
  counterPropose: async (number: bigint, change: CounterProposal) => {
    if (change.codeNames === undefined && change.petNamePaths === undefined) {
      const original = mail.mustGetProposal(host, number);
      await mail.counter(host, number, {
        source: change.source,
        codeNames: original.codeNames,
        petNamePaths: original.petNamePaths,
        edgeNames: original.edgeNames,
        ids: original.ids,
        workerName: change.workerName ?? original.workerName,
        resultName: change.resultName,
      });
      return;
    }
    await mail.counterEvaluate(
      host,
      number,
      change.source,
      change.codeNames ?? [],
      change.petNamePaths ?? [],
      change.workerName,
      change.resultName?.split('.'),
    );
  },
});
harden(makeHostReview);
