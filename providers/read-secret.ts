/**
 * Reads one secret from the caplet's env: the variable itself (`LAL_AUTH_TOKEN`)
 * or, as container tools do with `*_FILE` variables, a file it names
 * (`LAL_AUTH_TOKEN_FILE`). With the file, the daemon persists a path in its
 * formula files, never the secret. The file is read each time this is called,
 * so a rotated token is picked up when the provider is next made.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { ProviderError } from './types.js';
import type { Env } from './types.js';

/** The name of the variable that names `name`'s file. */
const secretFileVariable = (name: string): string => `${name}_FILE`;

const codeOf = (error: unknown): string =>
  typeof error === 'object' && error !== null && 'code' in error
    ? String(error.code)
    : String(error);

/**
 * The secret `name` holds, or the contents of the file `name_FILE` names
 * (one trailing line break dropped, as `echo token > file` leaves one);
 * undefined when neither is set. Both set, a relative path, an unreadable or
 * empty file: a ProviderError naming the variable, never the secret.
 */
export const readSecret = (env: Env, name: string): string | undefined => {
  const fileVariable = secretFileVariable(name);
  const direct = env[name];
  const file = env[fileVariable];
  const hasDirect = direct !== undefined && direct !== '';
  const hasFile = file !== undefined && file !== '';
  if (hasDirect && hasFile) {
    throw new ProviderError('config', `set ${name} or ${fileVariable}, not both`);
  }
  if (hasDirect) return direct;
  if (!hasFile) return undefined;
  if (!path.isAbsolute(file)) {
    throw new ProviderError(
      'config',
      `${fileVariable} must be an absolute path; got ${JSON.stringify(file)}${file.startsWith('~') ? ' (a ~ in quotes is not your home folder: quotes stop its expansion, as in a shell; write it unquoted or as $HOME)' : ''}`,
    );
  }
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new ProviderError(
      'config',
      `${fileVariable} names a file that cannot be read (${codeOf(error)}): ${JSON.stringify(file)}`,
      undefined,
      { cause: error },
    );
  }
  const secret = text.replace(/\r?\n$/, '');
  if (secret === '')
    throw new ProviderError(
      'config',
      `${fileVariable} names an empty file: ${JSON.stringify(file)}`,
    );
  return secret;
};
harden(readSecret);

/**
 * The secrets held in files named by `*_FILE` variables whose base name
 * marks a secret, for redaction: what could not be read is left out (the
 * provider reports that itself).
 */
export const secretsFromFiles = (env: Env, isSecretName: (name: string) => boolean): string[] => {
  const found: string[] = [];
  for (const [variable, value] of Object.entries(env)) {
    if (!variable.endsWith('_FILE') || value === undefined || value === '') continue;
    const name = variable.slice(0, -'_FILE'.length);
    if (!isSecretName(name)) continue;
    try {
      const secret = readSecret({ [variable]: value }, name);
      if (secret !== undefined) found.push(secret);
    } catch {
      // Unreadable: nothing to hide.
    }
  }
  return found;
};
harden(secretsFromFiles);
