/**
 * A setting's refusal says where its value came from (issue 45): a bad value in `.env` was named
 * without the file, and the line saying the settings were read from it comes only once start-up
 * succeeds. `LAL_MAX_TOKENS must be …; got "abc" in .env at /x/.env; see docs/configuration.md.`
 */
import type { LoadedEnv } from './dotenv.js';

/** `line` with the source of the setting it refuses after the value it quotes; other lines as they are. */
export const withWhereSet = (
  line: string,
  loaded: Pick<LoadedEnv, 'env' | 'file' | 'fromFile'>,
): string => {
  const name = /^((?:LAL|FAE)_\w+) must be /.exec(line)?.[1];
  const value = name === undefined ? undefined : loaded.env[name];
  if (name === undefined || value === undefined) return line;
  const got = `; got ${JSON.stringify(value)}`;
  const at = line.indexOf(got);
  if (at === -1) return line;
  const where =
    loaded.file !== undefined && loaded.fromFile.includes(name)
      ? `in .env at ${loaded.file}`
      : 'in the environment';
  const end = at + got.length;
  return `${line.slice(0, end)} ${where}${line.slice(end)}`;
};
harden(withWhereSet);
