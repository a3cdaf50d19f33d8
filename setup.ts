/**
 * Provisions a Lal (or Fae) guest in the Endo daemon and starts its agent:
 *
 *   endo run --UNCONFINED dist/setup.js --powers AGENT          # guest "lal"
 *   LAL_NAME=fae endo run --UNCONFINED dist/setup.js --powers AGENT
 *
 * The guest's name comes from LAL_NAME (or the one argument), its persona
 * from LAL_PERSONA (default: fae for a guest named fae, else lal). The agent
 * gets only the variables of PASSED_ENV_NAMES that are set. Safe to re-run:
 * a running agent is kept unless LAL_RESTART=1. The agent is pinned in the
 * host's PINS, so the daemon starts it again after a restart, unless LAL_PIN=0.
 */
import { pickEnv, type SourceEnv } from './setup/passed-env.js';
import { provisionAgent } from './setup/provision-agent.js';
import { guestNamesFor, readFaeCwd, readPersona, readPin, readRestart, readTokenFile } from './setup/read-setup-env.js';
import { assertModuleExists } from './setup/module-specifier.js';
import { sayToConsole, type Say } from './setup/say.js';
import type { SetupHostRef } from './setup/setup-host.js';

export { PASSED_ENV_NAMES } from './setup/passed-env.js';

export const SETUP_COMMAND = 'endo run --UNCONFINED dist/setup.js --powers AGENT';
const DEFAULT_GUEST = 'lal';

export interface SetupOptions {
  /** The agent's module as a file:// URL; the built agent.js next to this script by default. */
  agentSpecifier?: string;
  /** Read when main runs; `process.env` by default. */
  env?: SourceEnv;
  /** What a relative FAE_CWD is relative to; `process.cwd()` by default. */
  cwd?: string;
  /** Progress lines; stdout by default. */
  say?: Say;
}

/** `dist/agent.js` once built: this script's own directory. */
export const defaultAgentSpecifier = (): string => new URL('./agent.js', import.meta.url).href;

export const makeSetup =
  (options: SetupOptions = {}) =>
  async (hostPowers: SetupHostRef, ...args: string[]): Promise<void> => {
    const env = options.env ?? process.env;
    const say = options.say ?? sayToConsole;
    if (args.length > 1) {
      throw Error(`Usage: ${SETUP_COMMAND} [guest-name] (or set LAL_NAME); got ${args.length} arguments`);
    }
    const [nameArgument] = args;
    const rawName = nameArgument ?? (env.LAL_NAME || DEFAULT_GUEST);
    const names = guestNamesFor(rawName, nameArgument === undefined ? 'LAL_NAME' : 'The guest name');
    const persona = readPersona(env, names.guestName === 'fae' ? 'fae' : 'lal');
    const faeCwd = readFaeCwd(env, options.cwd ?? process.cwd());
    const tokenFile = readTokenFile(env, options.cwd ?? process.cwd());
    const agentSpecifier = assertModuleExists(options.agentSpecifier ?? defaultAgentSpecifier());
    const prefix = names.guestName === DEFAULT_GUEST ? '' : `LAL_NAME=${names.guestName} `;
    await provisionAgent(hostPowers, {
      names,
      persona,
      env: pickEnv({ ...env, FAE_CWD: faeCwd, LAL_AUTH_TOKEN_FILE: tokenFile }),
      agentSpecifier,
      restart: readRestart(env),
      pin: readPin(env),
      command: `${prefix}${SETUP_COMMAND}`,
      say,
    });
  };

/** The entry `endo run --UNCONFINED` calls. */
export const main = makeSetup();
