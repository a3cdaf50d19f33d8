/**
 * What the person typed at the prompt, kept in the state folder between runs
 * (as a shell keeps its history), so the up arrow finds last run's lines too.
 * One line per entry, newest last, the last HISTORY_SIZE kept; the file is
 * readable by its user only (it holds what was said to the agent).
 */
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const FILE = 'input-history';
export const HISTORY_SIZE = 500;
harden(HISTORY_SIZE);

export const makeInputHistory = (folder: string, fresh: boolean) => {
  const path = join(folder, FILE);
  return harden({
    path,
    /** As readline takes it: newest first. */
    load(): string[] {
      if (fresh || !existsSync(path)) return [];
      const lines = readFileSync(path, 'utf8')
        .split('\n')
        .filter(line => line.trim() !== '');
      return lines.slice(-HISTORY_SIZE).reverse();
    },
    /** `newestFirst` as readline's 'history' event gives it. */
    save(newestFirst: readonly string[]): void {
      const lines = newestFirst.slice(0, HISTORY_SIZE).reverse();
      writeFileSync(`${path}.new`, lines.map(line => `${line}\n`).join(''), { mode: 0o600 });
      renameSync(`${path}.new`, path);
    },
  });
};
harden(makeInputHistory);
export type InputHistory = ReturnType<typeof makeInputHistory>;
