/**
 * A value as JSON with every secret redacted, for what is stored (the
 * memory, written after every message). Each string (keys too) is redacted
 * as it is serialised: in JSON text a secret holding `"` or `\` is escaped
 * and would no longer match. Most saves hold no secret at all: when the
 * redactor says the plain JSON holds nothing it would change (`mayChangeJson`,
 * providers/redact-secrets.ts), that JSON is the answer, made by V8 in one
 * pass with no call per string.
 */
import type { Redact } from '../../providers/redact-secrets.js';

/** String by string, keys too (an object is copied with its keys redacted), before JSON escapes any. */
const redactEachString = (value: unknown, redact: Redact): string =>
  JSON.stringify(value, (_key, item: unknown) => {
    if (typeof item === 'string') return redact(item);
    if (item === null || typeof item !== 'object' || Array.isArray(item)) return item;
    return Object.fromEntries(Object.entries(item).map(([key, inner]) => [redact(key), inner]));
  });

export const redactedJson = (value: unknown, redact: Redact): string => {
  if (redact.mayChangeJson !== undefined) {
    const plain = JSON.stringify(value);
    if (!redact.mayChangeJson(plain)) return plain;
  }
  return redactEachString(value, redact);
};
harden(redactedJson);
