/**
 * Provisions the agent manager on the newest daemon, as upstream Lal's
 * setup.js provisions its own (endo packages/lal/setup.js): a guest named
 * `setup-lal` introduced to the host's powers (`@agent`) as `host-agent`,
 * and the manager caplet `controller-for-setup-lal`, pinned. Unlike
 * upstream's, which runs on `@main`, it runs in a worker of its own
 * (`worker-for-setup-lal`) unless LAL_WORKER names one to share, so a fault
 * in another caplet's worker leaves the form answered (issue 35). The
 * manager sends `@host` the "Add an agent" form the chat UI shows. Kept when
 * it runs already, unless LAL_RESTART=1 (which also moves one started by an
 * earlier release on `@main`); LAL_FORM=0 leaves it out.
 */
import { b, makeError, q, X } from '@endo/errors';
import { E } from '@endo/far';
import type { SetupHostRef } from './setup-host.js';
import type { SetupDaemon } from './setup-daemon.js';
import type { Say } from './say.js';
import { pinAgent, stopToReplace, type PinOutcome } from './pin-agent.js';
import { chooseNames, HOST_AGENT, markOurs } from './our-agents.js';
import { describeWorker, readWorker, workerForChosen } from './read-setup-env.js';
import type { SourceEnv } from './passed-env.js';

const MANAGER_NAMES = harden({
  guestName: 'setup-lal',
  agentName: 'profile-for-setup-lal',
  controllerName: 'controller-for-setup-lal',
});

/** The manager's worker as LAL_WORKER says (readWorker): `worker-for-setup-lal` by default. */
export const readManagerWorker = (env: SourceEnv, mainWorker: string): string =>
  readWorker(env, MANAGER_NAMES.guestName, mainWorker);
harden(readManagerWorker);

export interface ProvisionManagerOptions {
  daemon: SetupDaemon;
  /** The manager's module (dist/agent-manager.js), a file:// URL. */
  managerSpecifier: string;
  /** The agent's module the manager starts for each submission. */
  agentSpecifier: string;
  /** Variables for the manager itself (LAL_LOG). */
  env: Readonly<Record<string, string>>;
  /** The worker it runs in (readManagerWorker): its own by default. */
  worker: string;
  /** Replace a manager that is already running (LAL_RESTART). */
  restart: boolean;
  pin: boolean;
  say: Say;
}

export const provisionManager = async (
  host: SetupHostRef,
  options: ProvisionManagerOptions,
): Promise<{ manager: 'started' | 'kept'; pin: PinOutcome }> => {
  const { daemon, say } = options;
  // Upstream Lal's setup names its own manager's guest setup-lal too: then ours takes the next free name.
  const { names, moved } = await chooseNames(host, MANAGER_NAMES, 'the agent manager');
  if (moved !== undefined) say(moved);
  const { guestName, agentName, controllerName } = names;
  const worker = workerForChosen(options.worker, MANAGER_NAMES.guestName, guestName);
  const controllerExists = await E(host).has(controllerName);
  if (controllerExists && !options.restart) {
    say(
      `the agent manager "${controllerName}" is running; its "Add an agent" form is in your inbox (endo inbox)`,
    );
    await markOurs(host, controllerName);
    return harden({
      manager: 'kept',
      pin: await pinAgent(host, daemon, controllerName, options.pin, say),
    });
  }
  if (!(await E(host).has(guestName))) {
    await E(host).provideGuest(
      guestName,
      harden({ introducedNames: { [daemon.agent]: HOST_AGENT }, agentName }),
    );
  } else if (!(await E(host).has(agentName))) {
    throw makeError(
      X`${q(guestName)} already exists but ${q(agentName)} does not: remove it (endo remove ${b(guestName)}) or set LAL_FORM=0`,
    );
  }
  if (controllerExists) await stopToReplace(host, daemon, controllerName, say);
  await E(host).makeUnconfined(
    worker,
    options.managerSpecifier,
    harden({
      powersName: agentName,
      resultName: controllerName,
      // LAL_NAME: its log lines carry the guest's name, as the agents' do.
      env: harden({
        ...options.env,
        LAL_NAME: guestName,
        LAL_AGENT_MODULE: options.agentSpecifier,
      }),
    }),
  );
  await markOurs(host, controllerName);
  say(
    controllerExists
      ? `started the agent manager again as "${controllerName}" (LAL_RESTART=1); the "Add an agent" form it sent before still stands`
      : `started the agent manager as "${controllerName}" (guest "${guestName}", given your powers as "${HOST_AGENT}"): it sent you an "Add an agent" form (endo inbox, or the chat UI) that makes another agent each time it is submitted; LAL_FORM=0 leaves it out`,
  );
  say(describeWorker(worker, daemon.worker));
  return harden({
    manager: 'started',
    pin: await pinAgent(host, daemon, controllerName, options.pin, say),
  });
};
harden(provisionManager);
