/**
 * Provisions a guest and starts its agent caplet, safely re-runnable:
 * an existing guest is reused (tools are handed to it directly), and an
 * agent already running under `controller-for-<name>` is left alone unless a
 * restart is asked for — makeUnconfined always makes a new caplet, so
 * calling it again would replace the running agent.
 */
import { b, makeError, q, X } from '@endo/errors';
import { E } from '@endo/far';
import type { SetupGuest, SetupHostRef } from './setup-host.js';
import type { SetupDaemon } from './setup-daemon.js';
import {
  describeWorker,
  TOKEN_AT_REST_ADVICE,
  workerForChosen,
  type GuestNames,
  type Persona,
} from './read-setup-env.js';
import type { Say } from './say.js';
import { pinAgent, stopToReplace, type PinOutcome } from './pin-agent.js';
import { readable } from '../src/agent-tools/tools-directory.js';
import { TOOLS_DIRECTORY } from '../src/agent-tools/fae-tool-registry.js';
import { STATE_DIRECTORY } from '../src/daemon/own-names.js';
import { chooseNames, markOurs } from './our-agents.js';

export interface ProvisionAgentOptions {
  /** The daemon's generation and the names that differ (setup-daemon.ts). */
  daemon: SetupDaemon;
  names: GuestNames;
  persona: Persona;
  /** The variables to pass (already picked); LAL_PERSONA is set from `persona`, LAL_NAME from the guest's name. */
  env: Readonly<Record<string, string>>;
  /** The agent's module, a file:// URL (`dist/agent.js`). */
  agentSpecifier: string;
  /** Host pet name → the guest's name for it: values the guest starts with. */
  introducedNames?: Readonly<Record<string, string>>;
  /**
   * Host pet names made anew by this run (setup-tools after `endo remove`):
   * an existing guest that holds an older value under the name is given the
   * new one in its place (docs/mcp.md's remove-and-run-again).
   */
  madeAnew?: readonly string[];
  /** The worker the agent runs in (readWorker: its own by default). */
  worker: string;
  /** Replace an agent that is already running. */
  restart: boolean;
  /** Pin the agent in the host's PINS so that it starts again after a daemon restart (LAL_PIN). */
  pin: boolean;
  /** The command that ran this, for the hints printed. */
  command: string;
  say: Say;
}

export interface AgentProvisioned {
  /** The names it was provisioned under: those asked for, unless another's (our-agents.ts). */
  names: GuestNames;
  guest: 'created' | 'reused';
  /** kept: it was running; revived: it was down and was started again by being looked up. */
  agent: 'started' | 'restarted' | 'kept' | 'revived';
  /** The guest's names for the values it was given by this run. */
  handed: string[];
  pin: PinOutcome;
}

/**
 * Gives an existing guest the introduced values it does not hold yet: into
 * its `tools/` when it has one (a running agent finds them there at its next
 * turn), else at its top level (the agent moves tools there when it starts).
 */
const handToExistingGuest = async (
  host: SetupHostRef,
  daemon: SetupDaemon,
  agentName: string,
  introducedNames: Readonly<Record<string, string>>,
  madeAnew: ReadonlySet<string>,
): Promise<string[]> => {
  const entries = Object.entries(introducedNames);
  if (entries.length === 0) return [];
  const guest = E(host).lookup(agentName) as Promise<SetupGuest>;
  // A tools/ the daemon collected (tools-directory.ts) cannot take them: the top level can, and the agent moves them.
  const hasTools = (await E(guest).has('tools')) && (await readable(guest, 'tools'));
  const handed: string[] = [];
  for (const [hostName, guestName] of entries) {
    const atTop = await E(guest).has(guestName);
    const inTools = !atTop && hasTools && (await E(guest).has('tools', guestName));
    const id = await E(host).identify(hostName);
    if (id === undefined) continue;
    if (atTop || inTools) {
      // Kept, unless this run made the value anew: then the guest's older one is replaced.
      if (!madeAnew.has(hostName)) continue;
      const path = inTools ? ['tools', guestName] : [guestName];
      if ((await E(guest).identify(...path)) === id) continue;
      await daemon.storeIdentifier(guest, path, id);
      handed.push(`${guestName} (replacing the one it held)`);
      continue;
    }
    await daemon.storeIdentifier(guest, hasTools ? ['tools', guestName] : [guestName], id);
    handed.push(guestName);
  }
  return handed;
};

/**
 * A new guest's tools/ and agent-state/ (where its memory lies,
 * src/memory/memory-place.ts, and what its worker is handed is held,
 * src/daemon/held-formulas.ts), made before its agent starts, while no other
 * call of this script runs: at f0a46042a a directory made while another call
 * ends is collected before it is named (tools-directory.ts), and the agent's
 * own making of tools/ at start raced this script's pin (5 of 7 fresh guests,
 * each leaving the daemon's raw "No reference exists" rejections in the
 * agent's log). Neither is made at a path whose walk calls the guest (such a
 * call ends with a collection too).
 */
export const makeOwnDirectories = async (host: SetupHostRef, agentName: string): Promise<void> => {
  await E(host).makeDirectory([agentName, TOOLS_DIRECTORY]);
  await E(host).makeDirectory([agentName, STATE_DIRECTORY]);
};
harden(makeOwnDirectories);

/**
 * Whether the agent under `controllerName` had to be started: a formula that
 * was cancelled (`endo cancel`), or not provided since the daemon started,
 * is not running, and the newest daemon revives pins only at start. Looking
 * it up provides it, which starts a caplet that is not running; the agent's
 * `startedAt()` then says whether that happened just now. An agent that
 * cannot say (an older one) counts as running.
 */
const startIfDown = async (host: SetupHostRef, controllerName: string): Promise<boolean> => {
  const before = Date.now();
  const agent = await E(host).lookup(controllerName);
  const startedAt = await Promise.resolve(E(agent as { startedAt(): number }).startedAt()).catch(
    () => undefined,
  );
  return typeof startedAt === 'number' && startedAt >= before;
};

export const provisionAgent = async (
  host: SetupHostRef,
  options: ProvisionAgentOptions,
): Promise<AgentProvisioned> => {
  const { daemon, persona, say } = options;
  // Names another setup made (upstream Lal's, say) are left alone: the next free ones are used.
  const { names, moved } = await chooseNames(host, options.names, 'LAL_NAME');
  if (moved !== undefined) say(moved);
  const { guestName, agentName, controllerName } = names;
  // A worker of its own is named after the guest it became (lal-2 beside upstream's lal).
  const worker = workerForChosen(options.worker, options.names.guestName, guestName);
  const introducedNames = harden({ ...(options.introducedNames ?? {}) });

  const guestExisted = await E(host).has(guestName);
  let handed: string[];
  if (guestExisted) {
    if (!(await E(host).has(agentName))) {
      throw makeError(
        X`${q(guestName)} already exists but ${q(agentName)} does not, so there are no powers to start its agent with (it was not made by this script). Remove it (endo remove ${b(guestName)}) or choose another name.`,
      );
    }
    handed = await handToExistingGuest(
      host,
      daemon,
      agentName,
      introducedNames,
      new Set(options.madeAnew ?? []),
    );
    say(
      `guest "${guestName}" already exists; reusing it${handed.length === 0 ? '' : `, gave it ${handed.join(', ')}`}`,
    );
  } else {
    await E(host).provideGuest(guestName, harden({ introducedNames, agentName }));
    await makeOwnDirectories(host, agentName);
    const present = await Promise.all(Object.keys(introducedNames).map(name => E(host).has(name)));
    handed = Object.values(introducedNames).filter((_, index) => present[index]);
    say(
      `created guest "${guestName}" (its powers: "${agentName}")${handed.length === 0 ? '' : `, introduced ${handed.join(', ')}`}`,
    );
  }

  const controllerExists = await E(host).has(controllerName);
  // A controller left from an earlier guest of this name serves that old guest: replace it.
  if (controllerExists && guestExisted && !options.restart) {
    const revived = await startIfDown(host, controllerName);
    say(
      revived
        ? `"${controllerName}" already exists, but the ${guestName} agent was not running; it is started again (looked up), and answers the mail that waited.`
        : `"${controllerName}" already exists: the ${guestName} agent is running, so no second one was started.`,
    );
    if (handed.length > 0) {
      say(
        'It finds tools given into its tools/ at its next turn; ones left at its top level move there when it restarts.',
      );
    }
    say(`To restart it with the current settings: LAL_RESTART=1 ${options.command}`);
    await markOurs(host, controllerName);
    const pin = await pinAgent(host, daemon, controllerName, options.pin, say);
    return harden({ names, guest: 'reused', agent: revived ? 'revived' : 'kept', handed, pin });
  }
  if (controllerExists) await stopToReplace(host, daemon, controllerName, say);

  // LAL_NAME: the guest's name, which the agent's log lines carry.
  const env = harden({ ...options.env, LAL_PERSONA: persona, LAL_NAME: guestName });
  await E(host).makeUnconfined(
    worker,
    options.agentSpecifier,
    harden({ powersName: agentName, resultName: controllerName, env }),
  );
  // Names only: values such as LAL_AUTH_TOKEN are secrets.
  say(
    `started the ${persona} agent as "${controllerName}", passing ${Object.keys(env).join(', ')}`,
  );
  say(describeWorker(worker, daemon.worker));
  if (options.env.LAL_AUTH_TOKEN !== undefined) say(TOKEN_AT_REST_ADVICE);
  await markOurs(host, controllerName);
  const pin = await pinAgent(host, daemon, controllerName, options.pin, say);
  say(`talk to it: endo send ${guestName} "hello"`);
  return harden({
    names,
    pin,
    guest: guestExisted ? 'reused' : 'created',
    agent: controllerExists ? 'restarted' : 'started',
    handed,
  });
};
harden(provisionAgent);
