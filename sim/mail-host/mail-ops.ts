/**
 * Mail between agents, following the daemon's mail.js rules: packages
 * (send, reply, adopt, dismiss, edit), requests and their answers, forms,
 * eval-proposals with their grant, rejection and counter-proposal, and
 * evaluations that run at once. One module per kind of mail; this one puts
 * them together as the operations the agents' powers call.
 */
import { makeCounterProposals } from './counter-proposals.js';
import { makeEditMessage } from './edit-message.js';
import { makeEvalProposals } from './eval-proposals.js';
import { makeEvaluateNow } from './evaluate-now.js';
import { makeFormMail } from './form-mail.js';
import { makeMailBasics } from './mail-basics.js';
import { makePackageMail } from './package-mail.js';
import { makeRequestMail } from './request-mail.js';
import type { AgentRegistry } from './agents.js';
import type { FormulaTable } from './formula-table.js';

export const makeMailOps = (table: FormulaTable, agents: AgentRegistry) => {
  const basics = makeMailBasics(table, agents);
  const proposals = makeEvalProposals(basics);
  return harden({
    ...makePackageMail(basics),
    editMessage: makeEditMessage(basics),
    ...makeRequestMail(basics),
    ...makeFormMail(basics),
    ...proposals,
    ...makeCounterProposals(basics, proposals.mustGetProposal),
    evaluateNow: makeEvaluateNow(basics),
  });
};
harden(makeMailOps);
export type MailOps = ReturnType<typeof makeMailOps>;
