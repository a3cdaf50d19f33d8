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

export const checkModelServer = async (
  env: Record<string, string>,
  fetchFn: typeof fetch = fetch,
): Promise<Preflight> => {
  let config: ProviderConfig;
  try {
    config = readProviderConfig(env);
  } catch (error) {
    // Config errors name the variable and never its value when it is secret.
    return {
      ok: false,
      line: `${describeError(error)}; see docs/configuration.md.`,
    };
  }
  const checked = await checkServer(config, {
    fetch: fetchFn,
    timeoutMs: TIMEOUT_MS,
    hostFromEnv: (env.LAL_HOST ?? '') !== '',
  });
  if (!checked.usable) return { ok: false, line: checked.problem ?? 'The model cannot be used.' };
  return checked.problem === undefined
    ? { ok: true, config }
    : { ok: true, config, warning: checked.problem };
};
harden(checkModelServer);
