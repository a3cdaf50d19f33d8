/**
 * Reads a `.env` file of KEY=VALUE lines. Variables already set in the
 * process win over the file, so a one-off `LAL_HOST=… npm start` still works.
 */
import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { unknownSettings } from '../../setup/known-settings.js';

const KEY = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * `~` at the start of a value (alone or before `/`) and `$HOME` or `${HOME}`
 * anywhere become the home folder, as a shell expands them (inside single
 * quotes a shell leaves them, and so does this).
 */
const expandHome = (value: string, home: string): string =>
  value.replace(/^~(?=\/|$)/, home).replace(/\$\{HOME\}|\$HOME(?![A-Za-z0-9_])/g, home);

/**
 * Blank lines and `#` comments are skipped; `export ` is allowed; matching
 * quotes are removed; `~` and `$HOME` expand as in a shell (not in single quotes).
 */
export const parseDotEnv = (
  text: string,
  home: string = homedir(),
): { values: Record<string, string>; problems: string[] } => {
  const values: Record<string, string> = {};
  const problems: string[] = [];
  for (const [index, raw] of text.split(/\r?\n/).entries()) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) continue;
    const body = line.startsWith('export ') ? line.slice('export '.length).trim() : line;
    const equals = body.indexOf('=');
    const key = equals < 0 ? '' : body.slice(0, equals).trim();
    if (equals < 0 || !KEY.test(key)) {
      // The line itself is not shown: it may hold a secret.
      problems.push(`line ${index + 1} is not KEY=VALUE`);
      continue;
    }
    let value = body.slice(equals + 1).trim();
    const quote = value[0];
    if ((quote === '"' || quote === "'") && value.length >= 2 && value.endsWith(quote)) {
      value = value.slice(1, -1);
      // A shell expands $HOME inside double quotes, but not ~.
      if (quote === '"') value = value.replace(/\$\{HOME\}|\$HOME(?![A-Za-z0-9_])/g, home);
    } else {
      // An unquoted value may end with a comment.
      value = expandHome(value.replace(/\s+#.*$/, ''), home);
    }
    values[key] = value;
  }
  return { values, problems };
};
harden(parseDotEnv);

export interface LoadedEnv {
  env: Record<string, string>;
  /** Where the file values came from, when there was a file. */
  file: string | undefined;
  problems: string[];
}

/** The process env over the `.env` file of `folder` (when it has one). */
export const loadEnv = (folder: string, processEnv: NodeJS.ProcessEnv): LoadedEnv => {
  const file = join(folder, '.env');
  let text: string | undefined;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    text = undefined;
  }
  const parsed = text === undefined ? { values: {}, problems: [] } : parseDotEnv(text);
  const env: Record<string, string> = { ...parsed.values };
  for (const [key, value] of Object.entries(processEnv)) {
    if (value !== undefined) env[key] = value;
  }
  return {
    env,
    file: text === undefined ? undefined : file,
    // A misspelt LAL_ or FAE_ variable would be silently ignored: name it, and the closest known one.
    problems: [...parsed.problems.map(problem => `${file}: ${problem}`), ...unknownSettings(env)],
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
