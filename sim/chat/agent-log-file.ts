/**
 * The agent's own log lines (already redacted by the agent) go to a file,
 * so they never break up the chat; `--verbose` also shows them. Each run gets
 * a folder of its own, readable by its user only: the log names tools, senders
 * and what the model said, which are nobody else's business on a shared machine.
 */
import { closeSync, mkdtempSync, openSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface AgentLogFile {
  path: string;
  write(line: string): void;
  close(): void;
}

const openPrivateLog = (persona: string): { path: string; fd: number | undefined } => {
  try {
    // mkdtemp makes the folder with mode 0700; 'wx' refuses a file already there.
    const path = join(mkdtempSync(join(tmpdir(), `lal-sim-${persona}-`)), 'agent.log');
    return { path, fd: openSync(path, 'wx', 0o600) };
  } catch {
    // Logging is a convenience; the chat goes on without it.
    return { path: '(none: the log could not be made)', fd: undefined };
  }
};

export const openAgentLog = (persona: string): AgentLogFile => {
  const opened = openPrivateLog(persona);
  let { fd } = opened;
  return {
    path: opened.path,
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
