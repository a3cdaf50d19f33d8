import { PROVIDER_ENV_NAMES } from '../providers/provider-settings.js';
import { fallbackTokenNames } from '../providers/fallback-config.js';
import { AGENT_ENV_NAMES } from '../src/settings/settings.js';

/**
 * Which of the setup script's environment variables reach a caplet. The
 * daemon's guard takes a record of strings only (an `undefined` or a number
 * fails it), so a variable that is unset or empty is left out, never passed
 * as `undefined` or `''`.
 */

/** The variables the agent and its providers read, and the file tools' root: the only ones setup passes. */
export const PASSED_ENV_NAMES: readonly string[] = Object.freeze([
  ...PROVIDER_ENV_NAMES,
  ...AGENT_ENV_NAMES,
  'FAE_CWD',
]);
harden(PASSED_ENV_NAMES);

/** The environment a setup script reads (`process.env` in the CLI). */
export type SourceEnv = Readonly<Record<string, string | undefined>>;

/** The variables among `names` that are set to a non-empty string, hardened. */
export const pickEnv = (
  source: SourceEnv,
  names: readonly string[] = PASSED_ENV_NAMES,
): Readonly<Record<string, string>> => {
  const picked: Record<string, string> = {};
  // LAL_FALLBACK names the variables that hold its servers' tokens (or their *_FILE form).
  const tokenNames = fallbackTokenNames(source).flatMap(name => [name, `${name}_FILE`]);
  for (const name of [...names, ...tokenNames]) {
    const value = source[name];
    if (typeof value === 'string' && value !== '') picked[name] = value;
  }
  return harden(picked);
};
harden(pickEnv);
