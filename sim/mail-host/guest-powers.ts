/** The EndoGuest exo a caplet's `powers` promise resolves to. */
import { makeGuardedExo } from './guarded-exo.js';
import { gateMethods, makeAgentMethods } from './agent-methods.js';
import { makeHelp } from './help-text.js';
import { GuestInterface, NewestGuestInterface } from './interfaces.js';
import { makeNewestAgentSurface } from './newest-methods.js';
import type { Agent } from './agents.js';
import type { FormulaTable } from './formula-table.js';
import type { MailOps } from './mail-ops.js';
import type { GuestPowers, NameOrPath } from './types.js';
import type { DaemonProfile } from './profile.js';

const newestGuestHelp: Record<string, string> = {
  '': `EndoGuest - a confined agent with directory and mail capabilities (newest daemon).
Directory: has, identify, reverseIdentify, locate, reverseLocate, list, listIdentifiers, lookup,
lookupById, lookupByLocator, reverseLookup, storeIdentifier, remove, move, copy, makeDirectory, storeValue.
Mail: listMessages, followMessages (an exo-stream reader), send, reply, editMessage, messageHistory,
dismiss, dismissAll, adopt, request, resolve, reject, form, submit. evaluate runs code at once.
Special names: @agent (these powers), @host (the host's handle), @mail, @self (own handle).`,
  storeIdentifier: 'storeIdentifier(nameOrPath, id): name a formula id.',
  editMessage:
    'editMessage(messageNumber, strings, edgeNames, petNamesOrPaths, { done }): revise a package you sent.',
  messageHistory:
    'messageHistory(messageNumber) -> Promise<revisions>: { envelope, done, date, timestamp } for each revision.',
  evaluate:
    'evaluate(workerName, source, codeNames, petNamesOrPaths, resultName?) -> Promise<value>: runs the code at once.',
};

const unsupported = (method: string, why: string) => async () => {
  throw Error(`${method} is not supported by the mail-host simulator (${why})`);
};

export const makeGuestPowers = (
  agent: Agent,
  table: FormulaTable,
  mail: MailOps,
  profile: DaemonProfile = 'f0a46042a',
) => {
  if (profile === 'newest') {
    const help = makeHelp(newestGuestHelp);
    const methods = {
      ...makeNewestAgentSurface(agent, table, mail, help),
      define: unsupported('define', 'no definition requests'),
    };
    return makeGuardedExo<GuestPowers>(
      'EndoGuest',
      NewestGuestInterface,
      gateMethods(agent, agent.incarnation, methods),
    );
  }
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
  return makeGuardedExo<GuestPowers>(
    'EndoGuest',
    GuestInterface,
    gateMethods(agent, agent.incarnation, methods),
  );
};
harden(makeGuestPowers);
