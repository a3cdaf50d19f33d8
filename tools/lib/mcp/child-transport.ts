/**
 * An MCP transport over a child process's stdin and stdout, started exactly
 * as told: the SDK's own StdioClientTransport adds the worker's HOME, USER,
 * SHELL and LOGNAME to the child's environment and does not lead a process
 * group, and a server confined like runCommand must get only its allow-listed
 * environment and be killed whole. Its stderr is handed over line by line
 * (for the log), and how it ended is kept so a failed call can say so.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { ReadBuffer, serializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

export interface ChildLaunch {
  file: string;
  argv: string[];
  env: Record<string, string>;
  cwd: string;
  /** Called once the child has ended (the sandbox's cgroups are released). */
  release(): void;
}

/** The longest stderr line kept whole; a server that writes without line breaks is cut. */
const MAX_STDERR_LINE = 4096;

/** A line that starts as runtimes and tools start an error: an error type, or a word that says so. */
const ERROR_LINE = /^\s*(?:[\w.$]*(?:Error|Exception)\b|(?:error|fatal|panic)\b|npm ERR!)/i;

export interface ChildTransport extends Transport {
  /** How the child ended, in words, once it has. */
  ended(): string | undefined;
  /**
   * Why a server that cannot start stopped, as it wrote it on stderr: the last line that reads as an
   * error (`Error: …`, `ModuleNotFoundError: …`, `fatal: …`), else its last line. A runtime often
   * writes more after the error (Node a stack and "Node.js v20…"), which says nothing of why.
   */
  lastWords(): { line: string; isError: boolean } | undefined;
  pid(): number | undefined;
}

export const makeChildTransport = (
  launch: ChildLaunch,
  onStderrLine: (line: string) => void,
): ChildTransport => {
  let child: ChildProcess | undefined;
  let endedAs: string | undefined;
  const reader = new ReadBuffer();
  let stderrRest = '';
  let lastLine: string | undefined;
  let lastErrorLine: string | undefined;

  const killGroup = () => {
    if (child?.pid === undefined) return;
    try {
      process.kill(-child.pid, 'SIGKILL');
    } catch {
      // ESRCH: already gone.
    }
  };

  const flushStderr = (chunk: string, final: boolean) => {
    const lines = (stderrRest + chunk).split('\n');
    stderrRest = final ? '' : (lines.pop() ?? '');
    if (stderrRest.length > MAX_STDERR_LINE) {
      lines.push(stderrRest);
      stderrRest = '';
    }
    for (const line of lines) {
      if (line.trim() === '') continue;
      lastLine = line.slice(0, MAX_STDERR_LINE);
      if (ERROR_LINE.test(lastLine)) lastErrorLine = lastLine.trim();
      onStderrLine(lastLine);
    }
  };

  const transport: ChildTransport = {
    start: () =>
      new Promise<void>((resolve, reject) => {
        const started = spawn(launch.file, launch.argv, {
          cwd: launch.cwd,
          env: launch.env,
          stdio: ['pipe', 'pipe', 'pipe'],
          detached: true,
        });
        child = started;
        started.on('error', error => {
          endedAs = `could not be started (${(error as { code?: string }).code ?? error.message})`;
          launch.release();
          reject(error);
          transport.onerror?.(error);
        });
        started.on('spawn', () => resolve());
        started.stdout?.on('data', (chunk: Buffer) => {
          try {
            reader.append(chunk);
          } catch (error) {
            // More than the SDK's 10 MB without a line break: a server that floods is stopped.
            endedAs = 'wrote more than 10 MB without a line break and was killed';
            killGroup();
            transport.onerror?.(error as Error);
            return;
          }
          for (;;) {
            let message: JSONRPCMessage | null;
            try {
              message = reader.readMessage();
            } catch (error) {
              // A line that is not JSON-RPC: reported, and the next one read.
              transport.onerror?.(error as Error);
              continue;
            }
            if (message === null) break;
            transport.onmessage?.(message);
          }
        });
        started.stderr?.setEncoding('utf8');
        started.stderr?.on('data', (chunk: string) => flushStderr(chunk, false));
        started.stdin?.on('error', () => {
          // EPIPE when the server is gone: its exit reports it.
        });
        started.on('close', (code, signal) => {
          flushStderr('', true);
          endedAs ??=
            code !== null ? `exited with code ${code}` : `was killed by ${signal ?? 'a signal'}`;
          killGroup();
          launch.release();
          child = undefined;
          transport.onclose?.();
        });
      }),
    send: (message: JSONRPCMessage) =>
      new Promise<void>((resolve, reject) => {
        const stdin = child?.stdin;
        if (stdin === undefined || stdin === null || !stdin.writable) {
          reject(Error(`the server ${endedAs ?? 'is not running'}`));
          return;
        }
        if (stdin.write(serializeMessage(message))) resolve();
        else stdin.once('drain', () => resolve());
      }),
    close: async () => {
      if (child === undefined) return;
      endedAs ??= 'was stopped';
      const closing = child;
      await new Promise<void>(resolve => {
        closing.once('close', () => resolve());
        killGroup();
      });
    },
    ended: () => endedAs,
    lastWords: () =>
      lastErrorLine !== undefined
        ? { line: lastErrorLine, isError: true }
        : lastLine === undefined
          ? undefined
          : { line: lastLine, isError: false },
    pid: () => child?.pid,
  };
  return transport;
};
harden(makeChildTransport);
