/**
 * The one redactor: which settings hold secrets, by their names, and the
 * text with every secret (and any bearer or x-api-key value a server echoed)
 * replaced by [redacted]. The agent's log (src/log/log.ts) and the MCP
 * bridge's (tools/lib/mcp/bridge-log.ts) both hide by it, so a name one
 * marks as secret the other marks too. Here, in the folder every other may
 * import.
 */
import { redact } from './provider-errors.js';

/** The words that mark a variable's value as a secret (LAL_AUTH_TOKEN, an MCP_ENV API_KEY, a header). */
const SECRET_NAME = /TOKEN|KEY|SECRET|PASSWORD|AUTH|HEADER|CREDENTIAL/i;
const MIN_SECRET_LENGTH = 4;
// A limit such as LAL_MAX_TOKENS=2048 is named like a secret but is only a number.
const PLAIN_NUMBER = /^\s*[-+]?\d+(\.\d+)?\s*$/;

/** Whether a variable's name marks it a secret. */
export const isSecretName = (name: string): boolean => SECRET_NAME.test(name);
harden(isSecretName);

/** A value long enough to hide without hiding common words, and not a plain number. */
const isHideable = (value: string): boolean =>
  value.length >= MIN_SECRET_LENGTH && !PLAIN_NUMBER.test(value);

/** The values of the secret-named variables among `vars`. */
export const secretNamedValues = (vars: Readonly<Record<string, string | undefined>>): string[] =>
  Object.entries(vars)
    .filter(([name, value]) => isSecretName(name) && typeof value === 'string' && isHideable(value))
    .map(([, value]) => value as string);
harden(secretNamedValues);

/**
 * A redactor of text. One made by makeRedactText also says of a JSON text whether redacting the
 * strings it encodes (keys too) could change any of them (`mayChangeJson`): false only when none
 * can hold a secret or a bearer or x-api-key value, so a JSON text made without redaction is
 * already the redacted one (src/log/redacted-json.ts). A redactor without it is asked string by
 * string.
 */
export type Redact = ((text: string) => string) & {
  readonly mayChangeJson?: (json: string) => boolean;
};

const CREDENTIAL_VALUE = /(Bearer\s+|x-api-key["':\s]+)[A-Za-z0-9._~+/=-]{8,}/gi;
// What every text CREDENTIAL_VALUE matches holds, unescaped by JSON; tested before replacing, as
// most texts hold neither and a replace costs a match's records even when it finds none.
const CREDENTIAL_MARK = /bearer|x-api-key/i;
const SURROGATE = /[\uD800-\uDFFF]/;

/** A redactor of `secrets` (longest first, so one that holds another is hidden whole), and of bearer and x-api-key values. */
export const makeRedactText = (secrets: readonly string[]): Redact => {
  const sorted = secrets
    .filter(value => value.length >= MIN_SECRET_LENGTH)
    .sort((a, b) => b.length - a.length);
  // A string holding a secret holds it in its JSON as the secret's own JSON, since JSON escapes
  // each character alone, but for a surrogate (escaped only when unpaired): with one, always ask.
  const inJson = sorted.map(secret => JSON.stringify(secret).slice(1, -1));
  const anySurrogate = sorted.some(secret => SURROGATE.test(secret));
  const text = (said: string) => {
    const clean = redact(said, sorted);
    return CREDENTIAL_MARK.test(clean) ? clean.replace(CREDENTIAL_VALUE, '$1[redacted]') : clean;
  };
  const mayChangeJson = (json: string) =>
    anySurrogate || CREDENTIAL_MARK.test(json) || inJson.some(secret => json.includes(secret));
  return harden(Object.assign(text, { mayChangeJson }));
};
harden(makeRedactText);
