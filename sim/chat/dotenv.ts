/**
 * Reads a `.env` file of KEY=VALUE lines with Node's own parser
 * (`util.parseEnv`, the format of `node --env-file`). Variables already set
 * in the process win over the file, so a one-off `LAL_HOST=… npm start`
 * still works. A file that is there but cannot be read (no permission, a
 * folder, a broken link) is said in one line; a missing one is no problem.
 */
import { lstatSync, readFileSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { expandTilde, LEADING_TILDE } from './home-path.js';
import { join } from 'node:path';
import { parseEnv } from 'node:util';
import { unknownPolicyTools, unknownSettings } from '../../setup/known-settings.js';
import { describeError } from '../../providers/describe-error.js';

const KEY_LINE = /^(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(.*)$/;
const HOME_VARIABLE = /\$\{HOME\}|\$HOME(?![A-Za-z0-9_])/g;

/** Whether a value opens a quote it does not close on its line (Node's parser reads on to the closing one). */
const opensQuote = (value: string): string | undefined => {
  const quote = value[0];
  if (quote !== '"' && quote !== "'" && quote !== '`') return undefined;
  return value.indexOf(quote, 1) < 0 ? quote : undefined;
};

/** Whether a quoted value closed on its line has more after the quote than blanks or a comment. */
const textAfterQuote = (value: string): boolean => {
  const quote = value[0];
  if (quote !== '"' && quote !== "'" && quote !== '`') return false;
  const close = value.indexOf(quote, 1);
  if (close < 0) return false;
  const rest = value.slice(close + 1).trim();
  return rest !== '' && !rest.startsWith('#');
};

/**
 * The file's lines that are not KEY=VALUE (nor blank, a comment, or inside a
 * quoted value that spans lines), by number: blanked before Node's parser
 * reads the text, which would otherwise join such a line to the next key.
 * Also how each key's value begins: quoted or not decides what expands.
 */
const scanLines = (text: string) => {
  const lines = text.split(/\r?\n/);
  const bad: number[] = [];
  const quoteOf = new Map<string, string | undefined>();
  /** A quote left open: never closed, or closed only after lines that look like settings. */
  const unclosed: string[] = [];
  /** Text after a value's closing quote, which Node's parser drops. */
  const dropped: string[] = [];
  /** The value as written of a key whose quote no line closes: taken whole, quote included. */
  const asWritten = new Map<string, string>();
  let open:
    { quote: string; key: string; line: number; value: string; swallows: boolean } | undefined;
  const opened = (what: NonNullable<typeof open>) =>
    `line ${what.line}: the value of ${what.key} opens a ${what.quote} quote that`;
  for (const [index, raw] of lines.entries()) {
    if (open !== undefined) {
      open.swallows ||= KEY_LINE.test(raw.trim());
      if (raw.includes(open.quote)) {
        if (open.swallows)
          unclosed.push(
            `${opened(open)} only line ${index + 1} closes, so lines ${open.line + 1}–${index + 1} are read as part of it, not as settings (a quote left open?)`,
          );
        open = undefined;
      }
      continue;
    }
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) continue;
    const found = KEY_LINE.exec(line);
    if (found === null) {
      bad.push(index + 1);
      lines[index] = '';
      continue;
    }
    const value = found[2]!.trim();
    // As the pattern read it: Node's parser takes `export  KEY` (two spaces) as the key " KEY".
    lines[index] = `${found[1]!}=${value}`;
    quoteOf.set(found[1]!, /^["'`]/.test(value) ? value[0] : undefined);
    const after = textAfterQuote(value);
    if (after)
      dropped.push(
        `line ${index + 1}: what follows the closing quote of ${found[1]!}'s value is not read (only what is inside the quotes is; a # starts a comment)`,
      );
    const quote = opensQuote(value);
    open =
      quote === undefined
        ? undefined
        : { quote, key: found[1]!, line: index + 1, value, swallows: false };
  }
  if (open !== undefined) {
    // One rule, with or without a last newline (Node's parser keeps `"5` before one, drops the key without).
    asWritten.set(open.key, open.value);
    unclosed.push(
      `${opened(open)} no line after it closes, so it is read as written, quote included`,
    );
  }
  return { cleaned: lines.join('\n'), bad, quoteOf, unclosed, dropped, asWritten };
};

/**
 * Blank lines and `#` comments are skipped; `export ` is allowed; matching
 * quotes are removed. As in a shell, `~` at the start of an unquoted value
 * (alone or before `/`) and `$HOME` or `${HOME}` in an unquoted or
 * double-quoted one become the home folder; single quotes keep them, and a
 * quoted `~` is kept and said (quotes stop its expansion). A quote no line
 * closes is part of the value, which is read as written and said
 * (docs/troubleshooting.md).
 */
export const parseDotEnv = (
  text: string,
  home: string = homedir(),
): { values: Record<string, string>; problems: string[] } => {
  const { cleaned, bad, quoteOf, unclosed, dropped, asWritten } = scanLines(text);
  // The line itself is not shown: it may hold a secret.
  const problems = [...bad.map(line => `line ${line} is not KEY=VALUE`), ...unclosed, ...dropped];
  const values: Record<string, string> = {};
  for (const [key, value = ''] of Object.entries(parseEnv(cleaned))) {
    const quote = quoteOf.get(key);
    if (quote === undefined) values[key] = expandTilde(value, home).replace(HOME_VARIABLE, home);
    else {
      values[key] = quote === '"' ? value.replace(HOME_VARIABLE, home) : value;
      if (LEADING_TILDE.test(value))
        problems.push(
          `${key}'s ~ is not the home folder: quotes stop its expansion, as in a shell; write it unquoted or as $HOME`,
        );
    }
  }
  for (const [key, value] of asWritten) values[key] = value;
  return { values, problems };
};
harden(parseDotEnv);

export interface LoadedEnv {
  env: Record<string, string>;
  /** Where the file values came from, when there was a file. */
  file: string | undefined;
  problems: string[];
  /** The variables whose value came from the file (the environment's win over it). */
  fromFile: readonly string[];
  /** A file there that could not be read: one line saying so (the settings then come from the environment alone). */
  unreadable?: string;
}

const isBrokenLink = (file: string): boolean => {
  try {
    return lstatSync(file).isSymbolicLink();
  } catch {
    return false;
  }
};

/** The owner of a file, when it can be told. */
const ownerOf = (file: string): number | undefined => {
  try {
    return statSync(file).uid;
  } catch {
    return undefined;
  }
};

/**
 * Permission denied, with what would fix it: the person's own file they
 * can chmod; another user's only its owner (or root) can change, and a
 * chmod of their own would fail too.
 */
export const deniedLine = (
  file: string,
  owner: number | undefined = ownerOf(file),
  me: number | undefined = process.getuid?.(),
): string =>
  owner === undefined || me === undefined || owner === me
    ? `${file} could not be read: permission denied (chmod u+r ${file})`
    : `${file} could not be read: permission denied; it belongs to another user (uid ${owner}), so only they or root can change that (sudo chown $(id -u) ${file}), or move it away and write a .env of your own`;
harden(deniedLine);

/** The file's text; undefined when there is none (not an error); a line when it is there but unreadable. */
const readEnvFile = (file: string): { text?: string; unreadable?: string } => {
  try {
    return { text: readFileSync(file, 'utf8') };
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (code === 'ENOENT') {
      // A link to nothing is there, and meant: say so; no file at all is the usual case.
      return isBrokenLink(file)
        ? { unreadable: `${file} could not be read: it is a link to a file that does not exist` }
        : {};
    }
    if (code === 'EISDIR')
      return { unreadable: `${file} could not be read: it is a folder, not a file` };
    if (code === 'EACCES' || code === 'EPERM') return { unreadable: deniedLine(file) };
    return { unreadable: `${file} could not be read: ${describeError(error)}` };
  }
};

/** The process env over the `.env` file of `folder` (when it has one). */
export const loadEnv = (folder: string, processEnv: NodeJS.ProcessEnv): LoadedEnv => {
  const file = join(folder, '.env');
  const { text, unreadable } = readEnvFile(file);
  const parsed = text === undefined ? { values: {}, problems: [] } : parseDotEnv(text);
  const env: Record<string, string> = { ...parsed.values };
  for (const [key, value] of Object.entries(processEnv)) {
    if (value !== undefined) env[key] = value;
  }
  return {
    env,
    file: text === undefined ? undefined : file,
    fromFile: Object.keys(parsed.values).filter(key => processEnv[key] === undefined),
    // A misspelt LAL_ or FAE_ variable, or tool name in a policy list, would be silently ignored: name it, and the closest known one.
    problems: [
      ...parsed.problems.map(problem => `${file}: ${problem}`),
      ...unknownSettings(env),
      ...unknownPolicyTools(env),
    ],
    ...(unreadable === undefined ? {} : { unreadable }),
  };
};
harden(loadEnv);

/** The variables a caplet gets, as setup.ts passes them: only the agent's own, only when set. */
export const capletEnv = (env: Record<string, string>): Record<string, string> => {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(env)) {
    if (key.startsWith('LAL_') && value !== '') out[key] = value;
  }
  return out;
};
harden(capletEnv);
