/**
 * The agent's log: one line per event to the worker's log (stderr), each
 * starting with the guest's name, with every secret from the environment
 * replaced by [redacted]. Nothing else in
 * the agent writes to the console.
 */
import {
  isSecretName,
  makeRedactText,
  secretNamedValues,
  type Redact,
} from '../../providers/redact-secrets.js';
import { writeStderrLine } from '../../providers/stderr-sink.js';
import { fallbackTokenValues } from '../../providers/fallback-config.js';
import { secretsFromFiles } from '../../providers/read-secret.js';
import type { Env } from '../../providers/types.js';
import { readAgentName, readLogLevel } from '../settings/settings.js';

export type Log = (line: string) => void;

/** The values to hide: every env value whose name marks a secret (unless it is a plain number), the secrets read from files, and the LAL_FALLBACK servers' tokens whatever their names. */
export const secretValues = (env: Env): string[] => [
  ...secretNamedValues(env),
  // The secrets read from files (LAL_AUTH_TOKEN_FILE): they are in no env value.
  ...secretsFromFiles(env, isSecretName),
  ...fallbackTokenValues(env),
];
harden(secretValues);

export const makeRedactor = (env: Env): Redact => makeRedactText(secretValues(env));
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
  sink: (line: string) => void = writeStderrLine,
  hideSecrets: (text: string) => string = makeRedactor(env),
): Log => {
  if (readLogLevel(env) === 'off') return () => {};
  // The guest's name (setup passes LAL_NAME), so agents sharing a worker can be told apart; else the persona.
  const name = readAgentName(env);
  return neverThrows(line => sink(hideSecrets(`[${name}] ${line}`)));
};
harden(makeLog);
