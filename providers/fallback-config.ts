/**
 * LAL_FALLBACK: further model servers to try, in order, when the current
 * one fails in a way retrying will not mend soon. A comma-separated list of
 * `URL|model|TOKEN_VARIABLE` entries; the model is optional (then detected
 * as for LAL_HOST), the provider is guessed from the URL as for LAL_HOST, and
 * the token comes from the named variable or its `*_FILE` form. A fourth
 * part may name the provider (`anthropic`, `openai`, `ollama`) for a URL
 * that does not tell.
 */
import { readProviderConfig, type ProviderConfig } from './config.js';
import { readSecret } from './read-secret.js';
import { ProviderError, type Env } from './types.js';
import { describeError } from './describe-error.js';

const FALLBACK_ENV = 'LAL_FALLBACK';
const FALLBACK_COOLDOWN_ENV = 'LAL_FALLBACK_COOLDOWN_MS';
/** How long the chain stays on a fallback before it tries the first server again. */
export const DEFAULT_FALLBACK_COOLDOWN_MS = 5 * 60 * 1000;
harden(DEFAULT_FALLBACK_COOLDOWN_MS);

interface FallbackEntry {
  url: string;
  /** An optional fourth part: the provider, when the URL does not tell (as LAL_PROVIDER does for LAL_HOST). */
  provider: string | undefined;
  model: string | undefined;
  tokenName: string | undefined;
}

const parseEntries = (text: string | undefined): FallbackEntry[] => {
  if (text === undefined || text.trim() === '') return [];
  return text
    .split(',')
    .map(part => part.trim())
    .filter(part => part !== '')
    .map(part => {
      const [url = '', model = '', tokenName = '', provider = ''] = part
        .split('|')
        .map(piece => piece.trim());
      return {
        url,
        model: model === '' ? undefined : model,
        tokenName: tokenName === '' ? undefined : tokenName,
        provider: provider === '' ? undefined : provider,
      };
    });
};

/** The token variables LAL_FALLBACK names (each may also be given as NAME_FILE). */
export const fallbackTokenNames = (env: Env): string[] =>
  parseEntries(env[FALLBACK_ENV]).flatMap(entry =>
    entry.tokenName === undefined ? [] : [entry.tokenName],
  );
harden(fallbackTokenNames);

/** The fallback tokens' values, for redaction by value. Unreadable files give none. */
export const fallbackTokenValues = (env: Env): string[] =>
  fallbackTokenNames(env).flatMap(name => {
    try {
      const value = readSecret(env, name);
      return value === undefined ? [] : [value];
    } catch {
      return [];
    }
  });
harden(fallbackTokenValues);

/** One ProviderConfig per fallback entry: the primary's settings, with the entry's server, model and token. */
export const readFallbackConfigs = (env: Env): ProviderConfig[] =>
  parseEntries(env[FALLBACK_ENV]).map((entry, index) => {
    const where = `${FALLBACK_ENV} entry ${index + 1}`;
    if (!/^https?:\/\//i.test(entry.url)) {
      throw new ProviderError(
        'config',
        `${where} must start with an http:// or https:// address; got ${JSON.stringify(entry.url)}`,
      );
    }
    if (entry.tokenName !== undefined && !/^[A-Za-z_][A-Za-z0-9_]*$/.test(entry.tokenName)) {
      throw new ProviderError(
        'config',
        `${where} names the token variable ${JSON.stringify(entry.tokenName)}, which is not a variable name`,
      );
    }
    const token = entry.tokenName === undefined ? undefined : readSecret(env, entry.tokenName);
    try {
      return readProviderConfig({
        ...env,
        LAL_HOST: entry.url,
        LAL_PROVIDER: entry.provider,
        LAL_MODEL: entry.model,
        LAL_AUTH_TOKEN: token,
        // The primary's key file is not the fallback's.
        LAL_AUTH_TOKEN_FILE: undefined,
      });
    } catch (error) {
      const text = describeError(error);
      if (entry.tokenName === undefined && text.includes('LAL_AUTH_TOKEN')) {
        throw new ProviderError(
          'config',
          `${where} needs a token: name the variable that holds it as the entry's third part (URL|model|TOKEN_VARIABLE)`,
        );
      }
      // The primary's variable names become the entry's own (NAME and NAME_FILE), wherever the message says them.
      const own = text
        .replace(
          /LAL_AUTH_TOKEN(_FILE)?/g,
          (_all, file: string | undefined) => `${entry.tokenName}${file ?? ''}`,
        )
        .replace('LAL_PROVIDER', 'its fourth part');
      throw new ProviderError('config', `${where}: ${own}`);
    }
  });
harden(readFallbackConfigs);

export const readFallbackCoolDownMs = (env: Env): number => {
  const text = env[FALLBACK_COOLDOWN_ENV];
  if (text === undefined || text.trim() === '') return DEFAULT_FALLBACK_COOLDOWN_MS;
  const value = Number(text.trim());
  if (!Number.isSafeInteger(value) || value < 0) {
    throw new ProviderError(
      'config',
      `${FALLBACK_COOLDOWN_ENV} must be a whole number of milliseconds; got ${JSON.stringify(text)}`,
    );
  }
  return value;
};
harden(readFallbackCoolDownMs);
