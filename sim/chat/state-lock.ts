/**
 * One `npm start` at a time on a state folder (docs/behaviour.md 10.1): two
 * runs on one folder would each save the conversation over the other's and
 * number messages twice. The lock is a file made with O_EXCL holding the
 * holder's pid; a lock whose pid is gone (a run killed with SIGKILL, a
 * crash) is stale and taken over, so it never blocks the next start. Nor does
 * one whose pid was given to another program since (pids are reused, soon
 * after a restart of the machine or the container): where /proc tells what a
 * process runs, only a run of this same program holds the lock.
 */
import { openSync, readFileSync, rmSync, writeSync, closeSync } from 'node:fs';
import { join, sep } from 'node:path';

const LOCK_FILE = 'running.pid';

export type StateLock =
  | { ok: true; release: () => void }
  /** `holder` is undefined when another starter took the lock just now. */
  | { ok: false; holder: number | undefined };

/** Whether a process of this pid runs (EPERM: it does, as another user's). */
const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
};

/**
 * Whether the process of `pid` runs this program (the simulator's entry, by
 * its last three path parts, so a run from another clone counts too). True
 * where that cannot be read (no /proc, another user's process): then a live
 * pid is all there is to go by.
 */
const runsThisProgram = (pid: number): boolean => {
  const entry = process.argv[1];
  if (entry === undefined) return true;
  const tail = entry.split(sep).slice(-3).join(sep);
  let commandLine: string;
  try {
    commandLine = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
  } catch {
    return true;
  }
  return commandLine.split('\0').some(part => part.endsWith(tail));
};

/** The pid a lock file names, or undefined when it names none (half written, or not ours). */
const holderOf = (path: string): number | undefined => {
  try {
    const pid = Number(readFileSync(path, 'utf8').trim());
    return Number.isSafeInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
};

/** The one line that refuses a second run, with what to do instead. */
export const lockedLine = (shownFolder: string, holder: number | undefined): string =>
  `${shownFolder} is in use by another npm start${holder === undefined ? '' : ` (process ${holder})`}: ` +
  'two runs on one state folder would lose one conversation. Quit that one first, or give this ' +
  'one a state folder of its own: XDG_STATE_HOME=<another folder> npm start …';
harden(lockedLine);

/**
 * Takes `folder`'s lock for this process, or says which live process holds
 * it. Released by `release()` and, failing that, when this process exits.
 */
export const lockStateFolder = (folder: string): StateLock => {
  const path = join(folder, LOCK_FILE);
  // Twice at most: once as found, once after clearing a stale lock.
  for (let attempt = 0; attempt < 2; attempt += 1) {
    try {
      const fd = openSync(path, 'wx', 0o600);
      try {
        writeSync(fd, `${process.pid}\n`);
      } finally {
        closeSync(fd);
      }
      const release = () => {
        process.off('exit', release);
        if (holderOf(path) === process.pid) rmSync(path, { force: true });
      };
      process.on('exit', release);
      return { ok: true, release };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const holder = holderOf(path);
    if (holder !== undefined && holder !== process.pid && alive(holder) && runsThisProgram(holder))
      return { ok: false, holder };
    // Stale: its process is gone, or its pid now another program's. Cleared only if it still names that process, so a
    // lock another starter took meanwhile stays.
    if (holderOf(path) === holder) rmSync(path, { force: true });
  }
  return { ok: false, holder: holderOf(path) };
};
harden(lockStateFolder);
