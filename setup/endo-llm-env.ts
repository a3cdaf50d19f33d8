/**
 * Upstream Lal's setup variables (endo packages/lal/setup.js and
 * packages/chat/setup-lal.js read ENDO_LLM_HOST, ENDO_LLM_MODEL,
 * ENDO_LLM_AUTH_TOKEN and ENDO_LLM_NAME), read here as our LAL_* ones. When
 * both are set the ENDO_LLM_* one wins, in the order upstream's agentry
 * reads the pair (packages/agentry/src/eval/env-model.js: ENDO_LLM_* first,
 * LAL_* as the alias). Only the LAL_* names reach a caplet; values are never
 * printed, only names.
 */
import { Fail } from '@endo/errors';
import type { SourceEnv } from './passed-env.js';
import type { Say } from './say.js';

/** Upstream's name → ours. */
export const ENDO_LLM_ENV: Readonly<Record<string, string>> = harden({
  ENDO_LLM_HOST: 'LAL_HOST',
  ENDO_LLM_MODEL: 'LAL_MODEL',
  ENDO_LLM_AUTH_TOKEN: 'LAL_AUTH_TOKEN',
  ENDO_LLM_NAME: 'LAL_NAME',
  ENDO_LLM_FAST_MODEL: 'LAL_ROUTER_MODEL',
});
harden(ENDO_LLM_ENV);

const isSet = (value: string | undefined): value is string =>
  typeof value === 'string' && value !== '';

/**
 * The environment with each set ENDO_LLM_* variable copied to its LAL_* name
 * (over a LAL_* value) and the ENDO_LLM_* names left out. Says which were read
 * and which LAL_* values they replaced, by name.
 */
export const readEndoLlmEnv = (env: SourceEnv, say?: Say): SourceEnv => {
  const merged: Record<string, string | undefined> = { ...env };
  const read: string[] = [];
  const overridden: string[] = [];
  for (const [upstream, ours] of Object.entries(ENDO_LLM_ENV)) {
    const value = env[upstream];
    delete merged[upstream];
    if (!isSet(value)) continue;
    read.push(upstream);
    if (isSet(env[ours]) && env[ours] !== value) overridden.push(`${upstream} over ${ours}`);
    merged[ours] = value;
  }
  // Named, never shown: the token is no part of the message.
  !(isSet(env.ENDO_LLM_AUTH_TOKEN) && isSet(env.LAL_AUTH_TOKEN_FILE)) ||
    Fail`set ENDO_LLM_AUTH_TOKEN or LAL_AUTH_TOKEN_FILE, not both (LAL_AUTH_TOKEN_FILE keeps the token out of the daemon's files)`;
  if (say !== undefined && read.length > 0) {
    say(
      `read ${read.join(', ')} as ${read.map(name => ENDO_LLM_ENV[name]).join(', ')}${overridden.length === 0 ? '' : ` (${overridden.join(', ')})`}`,
    );
  }
  return merged;
};
harden(readEndoLlmEnv);
