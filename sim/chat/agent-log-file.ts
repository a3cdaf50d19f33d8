/**
 * The agent's own log lines (already redacted by the agent) go to a file,
 * so they never break up the chat; `--verbose` also shows them. One file per
 * run in the state folder's `logs/` (readable by its user only: the log names
 * tools, senders and what the model said), the last KEPT_LOGS runs kept and
 * older ones removed; `LAL_LOG=off` writes none.
 */
import { closeSync, mkdirSync, openSync, readdirSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { readLogLevel } from '../../src/settings/settings.js';

/** How many runs' logs stay in the state folder. */
const KEPT_LOGS = 5;

export interface AgentLogFile {
  /** The file, or undefined when there is none (LAL_LOG=off, or it could not be made). */
  path: string | undefined;
  /** Why there is no file, when there is none. */
  why?: string;
  write(line: string): void;
  close(): void;
}

/** A name that sorts by time: agent-2026-11-27T15-04-05-123Z.log. */
const fileName = (now: Date) => `agent-${now.toISOString().replace(/[:.]/g, '-')}.log`;

/** Removes all but the newest `keep` logs. */
const pruneLogs = (folder: string, keep: number) => {
  const logs = readdirSync(folder)
    .filter(name => /^agent-.*\.log$/.test(name))
    .sort();
  for (const name of logs.slice(0, Math.max(0, logs.length - keep)))
    rmSync(join(folder, name), { force: true });
};

export const openAgentLog = (
  stateFolder: string,
  env: Readonly<Record<string, string | undefined>>,
  now: Date = new Date(),
): AgentLogFile => {
  if (readLogLevel(env) === 'off')
    return { path: undefined, why: 'LAL_LOG=off', write: () => {}, close: () => {} };
  let fd: number | undefined;
  let path: string | undefined;
  try {
    const folder = join(stateFolder, 'logs');
    mkdirSync(folder, { recursive: true, mode: 0o700 });
    path = join(folder, fileName(now));
    // 'wx' refuses a file already there.
    fd = openSync(path, 'wx', 0o600);
    pruneLogs(folder, KEPT_LOGS);
  } catch {
    // Logging is a convenience; the chat goes on without it.
    return {
      path: undefined,
      why: 'it could not be made',
      write: () => {},
      close: () => {},
    };
  }
  return {
    path,
    write(line) {
      if (fd === undefined) return;
      try {
        writeSync(fd, `${new Date().toISOString()} ${line}\n`);
      } catch {
        // Same: a full disk must not stop the chat.
      }
    },
    close() {
      if (fd !== undefined) closeSync(fd);
      fd = undefined;
    },
  };
};
harden(openAgentLog);
