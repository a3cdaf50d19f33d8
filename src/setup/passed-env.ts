/**
 * Which of the setup script's environment variables reach a caplet. The
 * daemon's guard takes a record of strings only (an `undefined` or a number
 * fails it), so a variable that is unset or empty is left out, never passed
 * as `undefined` or `''`.
 */

/** The variables the agent reads; the only ones setup passes to it. */
export const PASSED_ENV_NAMES = Object.freeze([
  'LAL_HOST',
  'LAL_MODEL',
  'LAL_AUTH_TOKEN',
  'LAL_PROVIDER',
  'LAL_PERSONA',
  'LAL_MAX_TOKENS',
  'LAL_MAX_MESSAGES',
  'LAL_MAX_RETRIES',
  'LAL_REQUEST_TIMEOUT_MS',
  'LAL_MAX_MODEL_CALLS',
  'LAL_REPEAT_WARN',
  'LAL_REPEAT_REFUSE',
  'LAL_REPEAT_STOP',
  'LAL_TOOL_TIMEOUT_MS',
  'LAL_MAX_RESULT_CHARS',
  'LAL_CONTEXT_TOKENS',
  'LAL_KEEP_TURNS',
  'LAL_REMEMBER_HANDLED',
  'LAL_LOG',
  'FAE_CWD',
] as const);

/** The environment a setup script reads (`process.env` in the CLI). */
export type SourceEnv = Readonly<Record<string, string | undefined>>;

/** The variables among `names` that are set to a non-empty string, hardened. */
export const pickEnv = (
  source: SourceEnv,
  names: readonly string[] = PASSED_ENV_NAMES,
): Readonly<Record<string, string>> => {
  const picked: Record<string, string> = {};
  for (const name of names) {
    const value = source[name];
    if (typeof value === 'string' && value !== '') picked[name] = value;
  }
  return harden(picked);
};
