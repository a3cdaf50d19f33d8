/**
 * Before anything starts: does a model server answer where the env says, as
 * the API the agent will speak, with the model it names? The answer is one
 * line a person can act on, never a stack trace, and never the auth token.
 * A model that cannot be used stops the simulator (exit 1): a chat that greets
 * and then fails on every message helps nobody, least of all piped input.
 */
import { readProviderConfig, type ProviderConfig } from '../../providers/config.js';
import { checkServer } from '../../providers/check-server.js';
import { describeError } from '../../providers/describe-error.js';

export type Preflight =
  { ok: true; config: ProviderConfig; warning?: string } | { ok: false; line: string };

const TIMEOUT_MS = 3_000;
/** The simulator with its own scripted model double (README, "Try it without a model"). */
const DEMO_COMMAND = 'npm start -- --demo';
/** What stands for the missing key while the server is only asked which API it is. */
const KEY_PLACEHOLDER = 'no-key-set';
/** Whether a key was given at all (one given but unreadable is its own problem, said as it is). */
const readsKey = (env: Record<string, string>) =>
  (env.LAL_AUTH_TOKEN ?? '').trim() !== '' || (env.LAL_AUTH_TOKEN_FILE ?? '').trim() !== '';

/**
 * Anthropic's API without a key: the server is asked anyway (with a
 * placeholder, never a secret), so that a server that is not Anthropic's, or
 * nothing answering, is said at once rather than after the key is set.
 * Undefined when the key is what is missing (or the settings are wrong otherwise).
 * LAL_HOST unset is Anthropic's own address, not asked.
 */
const withoutKey = async (
  env: Record<string, string>,
  fetchFn: typeof fetch,
): Promise<string | undefined> => {
  let config: ProviderConfig;
  try {
    config = readProviderConfig({
      ...env,
      LAL_AUTH_TOKEN: KEY_PLACEHOLDER,
      LAL_AUTH_TOKEN_FILE: '',
    });
  } catch {
    return undefined;
  }
  // Anthropic's own address (LAL_HOST unset) is Anthropic's API: the key is what is missing.
  if (config.kind !== 'anthropic' || readsKey(env) || (env.LAL_HOST ?? '').trim() === '')
    return undefined;
  const checked = await checkServer(config, { fetch: fetchFn, timeoutMs: TIMEOUT_MS });
  return checked.usable || checked.refused === true ? undefined : checked.problem;
};

export const checkModelServer = async (
  env: Record<string, string>,
  fetchFn: typeof fetch = fetch,
): Promise<Preflight> => {
  let config: ProviderConfig;
  try {
    config = readProviderConfig(env);
  } catch (error) {
    // Config errors name the variable and never its value when it is secret.
    const line = `${describeError(error)}; see docs/configuration.md.`;
    return { ok: false, line: (await withoutKey(env, fetchFn)) ?? line };
  }
  const checked = await checkServer(config, {
    fetch: fetchFn,
    timeoutMs: TIMEOUT_MS,
    hostFromEnv: (env.LAL_HOST ?? '') !== '',
  });
  if (!checked.usable) {
    const problem = checked.problem ?? 'The model cannot be used.';
    // Nothing set and nothing at the default address: most likely a first try, without a model.
    const first = (env.LAL_HOST ?? '') === '' ? ` Or try it without a model: ${DEMO_COMMAND}` : '';
    return { ok: false, line: `${problem}${first}` };
  }
  return checked.problem === undefined
    ? { ok: true, config }
    : { ok: true, config, warning: checked.problem };
};
harden(checkModelServer);
