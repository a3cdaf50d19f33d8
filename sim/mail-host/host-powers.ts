/** The EndoHost exo: the shared agent methods plus the host-only ones. */
import { makeGuardedExo } from './guarded-exo.js';
import { gateMethods, makeAgentMethods } from './agent-methods.js';
import { makeHelp } from './help-text.js';
import { HostInterface, NewestHostInterface } from './interfaces.js';
import { makeNewestAgentSurface } from './newest-methods.js';
import type { DaemonProfile } from './profile.js';
import type { Agent } from './agents.js';
import type { FormulaTable } from './formula-table.js';
import type { MailOps } from './mail-ops.js';
import type { HostPowers, MakeCapletOptions, NameOrPath, ProvideGuestOptions } from './types.js';

/** What only the host can do; provided by the simulated daemon. */
export interface HostOnlyMethods {
  provideGuest(name?: string, options?: ProvideGuestOptions): Promise<unknown>;
  provideWorker(nameOrPath: NameOrPath): Promise<unknown>;
  makeUnconfined(
    workerName: string | undefined,
    specifier: string,
    options?: MakeCapletOptions,
  ): Promise<unknown>;
  cancel(nameOrPath: NameOrPath, reason?: Error): Promise<void>;
  /** The newest daemon's: a new channel under `petName`, its admin returned. */
  makeChannel(petName: NameOrPath, proposedName: string): Promise<unknown>;
  evaluate(
    workerName: string | undefined,
    source: string,
    codeNames: string[],
    petNamesOrPaths: NameOrPath[],
    resultName?: NameOrPath,
  ): Promise<unknown>;
}

const hostHelp: Record<string, string> = {
  '': `EndoHost - the person's agent: directory and mail methods, plus provideGuest,
provideWorker, makeUnconfined, evaluate (runs at once), cancel, grantEvaluate, counterEvaluate.`,
  provideGuest: 'provideGuest(name?, { introducedNames?, agentName? }): make (or find) a guest.',
  makeUnconfined:
    'makeUnconfined(workerName, specifier, { powersName, resultName, env }): run a caplet module.',
  grantEvaluate:
    'grantEvaluate(messageNumber): run an eval-proposal and answer it with the result.',
  counterEvaluate:
    'counterEvaluate(messageNumber, source, codeNames, petNamesOrPaths, workerName?, resultName?): send a counter-proposal.',
};

export const makeHostPowers = (
  agent: Agent,
  table: FormulaTable,
  mail: MailOps,
  hostOnly: HostOnlyMethods,
  profile: DaemonProfile = 'f0a46042a',
) => {
  const help = makeHelp(hostHelp);
  // What only a host may do, the same on both profiles.
  const hostMethods = {
    provideGuest: (name?: string, options?: ProvideGuestOptions) =>
      hostOnly.provideGuest(name, options),
    provideWorker: (nameOrPath: NameOrPath) => hostOnly.provideWorker(nameOrPath),
    makeUnconfined: (
      workerName: string | undefined,
      specifier: string,
      options?: MakeCapletOptions,
    ) => hostOnly.makeUnconfined(workerName, specifier, options),
    cancel: (nameOrPath: NameOrPath, reason?: Error) => hostOnly.cancel(nameOrPath, reason),
    evaluate: (
      workerName: string | undefined,
      source: string,
      codeNames: string[],
      petNamesOrPaths: NameOrPath[],
      resultName?: NameOrPath,
    ) => hostOnly.evaluate(workerName, source, codeNames, petNamesOrPaths, resultName),
  };
  if (profile === 'newest') {
    // No eval-proposals to grant or counter.
    const methods = {
      ...makeNewestAgentSurface(agent, table, mail, help),
      ...hostMethods,
      makeChannel: (petName: NameOrPath, proposedName: string) =>
        hostOnly.makeChannel(petName, proposedName),
    };
    return makeGuardedExo<HostPowers>(
      'EndoHost',
      NewestHostInterface,
      gateMethods(agent, agent.incarnation, methods),
    );
  }
  const methods = {
    help: (methodName?: string) => help(methodName),
    ...makeAgentMethods(agent, table, mail),
    ...hostMethods,
    grantEvaluate: (number: bigint) => mail.grant(agent, number),
    counterEvaluate: (
      number: bigint,
      source: string,
      codeNames: string[],
      petNamesOrPaths: NameOrPath[],
      workerName?: string,
      resultName?: string[],
    ) =>
      mail.counterEvaluate(
        agent,
        number,
        source,
        codeNames,
        petNamesOrPaths,
        workerName,
        resultName,
      ),
  };
  // The host's powers are the person's own: they are not disconnected by a restart.
  return makeGuardedExo<HostPowers>(
    'EndoHost',
    HostInterface,
    gateMethods(agent, agent.incarnation, methods),
  );
};
harden(makeHostPowers);
