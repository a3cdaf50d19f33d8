/**
 * The agent's log: one line per event to the worker's log (stderr), each
 * starting with the guest's name, with every secret from the environment
 * replaced by [redacted]. Nothing else in
 * the agent writes to the console.
 */
import { redact } from '../../providers/provider-errors.js';
import { fallbackTokenValues } from '../../providers/fallback-config.js';
import { secretsFromFiles } from '../../providers/read-secret.js';
import type { Env } from '../../providers/types.js';
import { readAgentName } from '../config/settings.js';

export type Log = (line: string) => void;

const SECRET_NAME = /TOKEN|KEY|SECRET|PASSWORD|AUTH|HEADER/i;
const MIN_SECRET_LENGTH = 4;
// A limit such as LAL_MAX_TOKENS=2048 is named like a secret but is only a number.
const PLAIN_NUMBER = /^\s*[-+]?\d+(\.\d+)?\s*$/;

/** The values to hide: every env value whose name marks a secret (unless it is a plain number), the secrets read from files, and the LAL_FALLBACK servers' tokens whatever their names. */
export const secretValues = (env: Env): string[] => [
  ...Object.entries(env)
    .filter(
      ([name, value]) =>
        SECRET_NAME.test(name) &&
        typeof value === 'string' &&
        value.length >= MIN_SECRET_LENGTH &&
        !PLAIN_NUMBER.test(value),
    )
    .map(([, value]) => value as string),
  // The secrets read from files (LAL_AUTH_TOKEN_FILE): they are in no env value.
  ...secretsFromFiles(env, name => SECRET_NAME.test(name)).filter(
    value => value.length >= MIN_SECRET_LENGTH,
  ),
  ...fallbackTokenValues(env).filter(value => value.length >= MIN_SECRET_LENGTH),
];
harden(secretValues);

export const makeRedactor = (env: Env): ((text: string) => string) => {
  // Longest first, so a secret that contains another is hidden whole.
  const secrets = secretValues(env).sort((a, b) => b.length - a.length);
  return text =>
    // Bearer and x-api-key values that did not come from env (e.g. echoed by a server).
    redact(text, secrets).replace(
      /(Bearer\s+|x-api-key["':\s]+)[A-Za-z0-9._~+/=-]{8,}/gi,
      '$1[redacted]',
    );
};
harden(makeRedactor);

/** A log that never throws: a failed write is not the agent's failure, and is not retried. */
export const neverThrows =
  (log: Log): Log =>
  line => {
    try {
      log(line);
    } catch {
      // Nowhere left to report it.
    }
  };
harden(neverThrows);

export const makeLog = (
  env: Env,
  sink: (line: string) => void = line => process.stderr.write(`${line}\n`),
): Log => {
  const level = (env.LAL_LOG ?? 'info').toLowerCase();
  if (level === 'off' || level === 'none') {
    return () => {};
  }
  const hideSecrets = makeRedactor(env);
  // The guest's name (setup passes LAL_NAME), so agents sharing a worker can be told apart; else the persona.
  const name = readAgentName(env);
  return neverThrows(line => sink(hideSecrets(`[${name}] ${line}`)));
};
harden(makeLog);
