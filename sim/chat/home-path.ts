/**
 * The home folder, and `~` read as a shell reads it: at the start of an
 * unquoted word, alone or before `/`, it is the home folder (`.env` values,
 * ./dotenv.ts; `/attach`'s words, ./shell-words.ts). A quoted one is kept.
 */
import { homedir } from 'node:os';

/** `~` where a shell expands it: the whole word, or before its first `/`. */
export const LEADING_TILDE = /^~(?=\/|$)/;
harden(LEADING_TILDE);

/** $HOME when set, else the system's home folder for this user. */
export const homeFolder = (env: Readonly<Record<string, string | undefined>>): string =>
  env.HOME !== undefined && env.HOME !== '' ? env.HOME : homedir();
harden(homeFolder);

/** The word with a leading `~` made the home folder. */
export const expandTilde = (word: string, home: string): string =>
  word.replace(LEADING_TILDE, home);
harden(expandTilde);
