/**
 * The API key as a value the HOST stored (docs/configuration.md,
 * LAL_AUTH_TOKEN_ID): read through the agent's powers when it starts, so the
 * key is in neither the chat (the "Add an agent" form passes the value's id,
 * not the key) nor the caplet's settings the daemon stores. From then on it
 * is redacted as LAL_AUTH_TOKEN is, and the model back end reads it as
 * LAL_AUTH_TOKEN.
 */
import { E } from '@endo/far';
import type { Env } from '../../providers/types.js';
import type { PowersRef } from '../daemon/guest-powers.js';
import type { Log } from '../log/log.js';
import { describeError } from '../../providers/describe-error.js';

/** The env the model back end reads: with the stored key as LAL_AUTH_TOKEN when LAL_AUTH_TOKEN_ID names one. */
export const readStoredToken = async (
  env: Env,
  powers: PowersRef,
  learn: { addSecret(value: string): void; log: Log },
): Promise<Env> => {
  const id = (env.LAL_AUTH_TOKEN_ID ?? '').trim();
  if (id === '') return env;
  let value: unknown;
  try {
    value = await E(powers as unknown as { lookupById(id: string): Promise<unknown> }).lookupById(
      id,
    );
  } catch (error) {
    learn.log(`LAL_AUTH_TOKEN_ID names no value I can read (${describeError(error)}): no API key`);
    return env;
  }
  if (typeof value !== 'string' || value.trim() === '') {
    learn.log(
      'LAL_AUTH_TOKEN_ID names a value that is not a stored text (endo store --text): no API key',
    );
    return env;
  }
  const token = value.trim();
  learn.addSecret(token);
  return harden({ ...env, LAL_AUTH_TOKEN: token });
};
harden(readStoredToken);
