/**
 * The agent's own log lines (already redacted by the agent) go to a file,
 * so they never break up the chat; `--verbose` also shows them.
 */
import { closeSync, openSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface AgentLogFile {
  path: string;
  write(line: string): void;
  close(): void;
}

export const openAgentLog = (persona: string): AgentLogFile => {
  const path = join(tmpdir(), `lal-sim-${persona}.log`);
  let fd: number | undefined;
  try {
    fd = openSync(path, 'w');
  } catch {
    fd = undefined; // Logging is a convenience; the chat goes on without it.
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
