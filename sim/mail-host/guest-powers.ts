/** The EndoGuest exo a caplet's `powers` promise resolves to. */
import { makeGuardedExo } from './guarded-exo.js';
import { gateMethods, makeAgentMethods } from './agent-methods.js';
import { makeHelp } from './help-text.js';
import { GuestInterface } from './interfaces.js';
import type { Agent } from './agents.js';
import type { FormulaTable } from './formula-table.js';
import type { MailOps } from './mail-ops.js';
import type { GuestPowers, NameOrPath } from './types.js';

const unsupported = (method: string, why: string) => async () => {
  throw Error(`${method} is not supported by the mail-host simulator (${why})`);
};

export const makeGuestPowers = (agent: Agent, table: FormulaTable, mail: MailOps) => {
  const help = makeHelp();
  const methods = {
    help: (methodName?: string) => help(methodName),
    ...makeAgentMethods(agent, table, mail),
    evaluate: (
      workerName: string | undefined,
      source: string,
      codeNames: string[],
      petNamesOrPaths: NameOrPath[],
      resultName?: NameOrPath,
    ) => mail.propose(agent, workerName, source, codeNames, petNamesOrPaths, resultName),
    requestEvaluation: unsupported('requestEvaluation', 'use evaluate, an eval-proposal'),
    define: unsupported('define', 'no definition requests'),
    form: unsupported('form', 'no form requests'),
  };
  return makeGuardedExo<GuestPowers>('EndoGuest', GuestInterface, gateMethods(agent, agent.incarnation, methods));
};
