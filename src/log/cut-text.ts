/**
 * Cutting a text without leaving part of a secret (docs/behaviour.md 9.5).
 * The redactor (log.ts) hides a secret only where it appears whole: a cut
 * through a token would keep a piece the redactor no longer knows (29 of a
 * token's 30 characters stored and recalled). Redact first where the
 * redactor is at hand; and every cut backs off to the start of a
 * token-shaped run it would split, so what is kept holds a token whole
 * (and redacted whole later) or not at all.
 */

// The characters of API keys, bearer tokens and the like (base64, base64url, hex, dashes, dots).
const TOKEN_CHAR = /[A-Za-z0-9._~+/=-]/;
// A run longer than this, all told, is not a secret but data (a blob, a long number): cut where it falls.
const LONGEST_TOKEN = 256;

/** Where to cut `text` to keep at most `max` characters without splitting a token-shaped run. */
export const cutIndex = (text: string, max: number): number => {
  if (text.length <= max) return text.length;
  // Only a run that goes on past the cut is split by it.
  if (!TOKEN_CHAR.test(text[max] ?? '') || !TOKEN_CHAR.test(text[max - 1] ?? '')) return max;
  let start = max;
  while (start > 0 && max - start <= LONGEST_TOKEN && TOKEN_CHAR.test(text[start - 1]!)) start -= 1;
  let end = max;
  while (end < text.length && end - start <= LONGEST_TOKEN && TOKEN_CHAR.test(text[end]!)) end += 1;
  return end - start > LONGEST_TOKEN ? max : start;
};
harden(cutIndex);

/** At most `max` characters of `text`, a token-shaped run kept whole or not at all; `more` marks a cut. */
export const cutWhole = (text: string, max: number, more = '…'): string =>
  text.length <= max ? text : `${text.slice(0, cutIndex(text, max))}${more}`;
harden(cutWhole);
