/**
 * The one reading of an on/off setting (LAL_STOP_AFTER_ANSWER, LAL_PROGRESS,
 * LAL_DIRECT_EVAL, LAL_PIN, LAL_RESTART, LAL_FORM, FAE_RUN_COMMAND_UNSANDBOXED,
 * FAE_SANDBOX_ALLOW_NETWORK, MCP_UNSANDBOXED, MCP_ALLOW_NETWORK): the same
 * words everywhere, and a word that is neither is the caller's error to
 * tell in its own form (a problem told to the HOST, or a setup error), never
 * silently on or off. It lives here, in the folder every other may import.
 */

/** The words that mean on, and those that mean off (case and spaces aside). */
const FLAG_WORDS = harden({
  on: ['1', 'true', 'yes', 'on'],
  off: ['0', 'false', 'no', 'off'],
});

/**
 * The flag `raw` says: `fallback` when it is unset or blank, else its word's
 * value; any other word is handed to `bad`, whose answer stands (it throws,
 * or tells and returns the fallback).
 */
export const readFlag = (
  raw: string | undefined,
  fallback: boolean,
  bad: (raw: string) => boolean,
): boolean => {
  const word = (raw ?? '').trim().toLowerCase();
  if (word === '') return fallback;
  if (FLAG_WORDS.on.includes(word)) return true;
  if (FLAG_WORDS.off.includes(word)) return false;
  return bad(raw ?? '');
};
harden(readFlag);

/** How a setting's error names the words it takes. */
export const FLAG_EXPECTED = '1 or 0';
harden(FLAG_EXPECTED);
