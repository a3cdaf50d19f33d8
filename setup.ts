/**
 * Provisions a Lal (or Fae) guest in the Endo daemon and starts its agent:
 *
 *   endo run --UNCONFINED dist/setup.js --powers AGENT          # guest "lal"
 *   LAL_NAME=fae endo run --UNCONFINED dist/setup.js --powers AGENT
 *   endo run --UNCONFINED dist/setup.js --powers @agent         # the newest daemon
 *
 * The guest's name comes from LAL_NAME (or the one argument), its persona
 * from LAL_PERSONA (default: fae for a guest named fae, else lal). The agent
 * gets only the variables of PASSED_ENV_NAMES that are set. Safe to re-run:
 * a running agent is kept unless LAL_RESTART=1. The agent is pinned in the
 * host's PINS, so the daemon starts it again after a restart, unless LAL_PIN=0.
 * Upstream Lal's ENDO_LLM_HOST / _MODEL / _AUTH_TOKEN / _NAME are read as
 * LAL_HOST / LAL_MODEL / LAL_AUTH_TOKEN / LAL_NAME (endo-llm-env.ts). On the
 * newest daemon (told from the host's methods) the names are `@main`,
 * `@pins`…, and the agent manager that answers the chat UI's "Add an agent"
 * form is provisioned too, unless LAL_FORM=0 (provision-manager.ts).
 */
import { Fail, q } from '@endo/errors';
import { scriptMain } from './setup/script-main.js';
import { pickEnv, type SourceEnv } from './setup/passed-env.js';
import { provisionAgent } from './setup/provision-agent.js';
import {
  guestNamesFor,
  readFaeCwd,
  readForm,
  readPersona,
  readPin,
  readRestart,
  readTokenFile,
  readWorker,
} from './setup/read-setup-env.js';
import { readEndoLlmEnv } from './setup/endo-llm-env.js';
import { readSetupDaemon, type SetupDaemon } from './setup/setup-daemon.js';
import { provisionManager, readManagerWorker } from './setup/provision-manager.js';
import { assertModuleExists } from './setup/module-specifier.js';
import { sayToConsole, type Say } from './setup/say.js';
import type { SetupHostRef } from './setup/setup-host.js';
import { unknownPolicyTools, unknownSettings } from './setup/known-settings.js';

// eslint-disable-next-line @endo/harden-exports -- hardened where it is defined (setup/passed-env.ts)
export { PASSED_ENV_NAMES } from './setup/passed-env.js';

/** The command as the daemon's CLI takes it: `--powers AGENT` at f0a46042a, `--powers @agent` in the newest. */
export const setupCommand = (daemon: Pick<SetupDaemon, 'agent'>): string =>
  `endo run --UNCONFINED dist/setup.js --powers ${daemon.agent}`;
harden(setupCommand);
const DEFAULT_GUEST = 'lal';

export interface SetupOptions {
  /** The agent's module as a file:// URL; the built agent.js next to this script by default. */
  agentSpecifier?: string;
  /** The agent manager's module (newest daemon); the built agent-manager.js next to this script by default. */
  managerSpecifier?: string;
  /** Read when main runs; `process.env` by default. */
  env?: SourceEnv;
  /** What a relative FAE_CWD is relative to; `process.cwd()` by default. */
  cwd?: string;
  /** Progress lines; stdout by default. */
  say?: Say;
}

/** `dist/agent.js` once built: this script's own directory. */
export const defaultAgentSpecifier = (): string => new URL('./agent.js', import.meta.url).href;
harden(defaultAgentSpecifier);
const defaultManagerSpecifier = (): string => new URL('./agent-manager.js', import.meta.url).href;

export const makeSetup =
  (options: SetupOptions = {}) =>
  async (hostPowers: SetupHostRef, ...args: string[]): Promise<void> => {
    const say = options.say ?? sayToConsole;
    const daemon = await readSetupDaemon(hostPowers);
    args.length <= 1 ||
      Fail`Usage: ${q(setupCommand(daemon))} [guest-name] (or set LAL_NAME); got ${q(args.length)} arguments`;
    const env = readEndoLlmEnv(options.env ?? process.env, say);
    for (const warning of [...unknownSettings(env), ...unknownPolicyTools(env)])
      say(`warning: ${warning}`);
    const [nameArgument] = args;
    const rawName = nameArgument ?? (env.LAL_NAME || DEFAULT_GUEST);
    const names = guestNamesFor(
      rawName,
      nameArgument === undefined ? 'LAL_NAME' : 'The guest name',
    );
    const persona = readPersona(env, names.guestName === 'fae' ? 'fae' : 'lal');
    const faeCwd = readFaeCwd(env, options.cwd ?? process.cwd());
    const tokenFile = readTokenFile(env, options.cwd ?? process.cwd());
    const agentSpecifier = assertModuleExists(options.agentSpecifier ?? defaultAgentSpecifier());
    const withManager = daemon.generation === 'newest' && readForm(env);
    const managerSpecifier = withManager
      ? assertModuleExists(options.managerSpecifier ?? defaultManagerSpecifier())
      : undefined;
    const prefix = names.guestName === DEFAULT_GUEST ? '' : `LAL_NAME=${names.guestName} `;
    await provisionAgent(hostPowers, {
      daemon,
      names,
      persona,
      env: pickEnv({ ...env, FAE_CWD: faeCwd, LAL_AUTH_TOKEN_FILE: tokenFile }),
      agentSpecifier,
      worker: readWorker(env, names.guestName, daemon.worker),
      restart: readRestart(env),
      pin: readPin(env),
      command: `${prefix}${setupCommand(daemon)}`,
      say,
    });
    if (managerSpecifier !== undefined) {
      await provisionManager(hostPowers, {
        daemon,
        managerSpecifier,
        agentSpecifier,
        env: pickEnv(env, ['LAL_LOG']),
        worker: readManagerWorker(env, daemon.worker),
        restart: readRestart(env),
        pin: readPin(env),
        say,
      });
    }
  };
harden(makeSetup);

/** The entry `endo run --UNCONFINED` calls: a failure is one line and exit code 1, not a stack. */
export const main = scriptMain(makeSetup());
harden(main);
