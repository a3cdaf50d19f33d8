/**
 * `runCommand`: runs a shell command (string, through /bin/sh -c) or an argv
 * array (no shell) with the tool root as working directory. The child gets
 * its own process group, killed whole when the timeout (bounded) runs out;
 * stdout and stderr are each capped with a marker; the child's environment
 * carries no LAL_* secrets.
 *
 * This tool is not a sandbox: the command runs with the worker's rights and
 * can reach outside the root. Only who holds the tool decides who may use it.
 */
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import type { Env } from '../providers/types.js';
import { makeChildEnv } from './child-env.js';
import { toolRootFromEnv } from './confine.js';
import { makeFaeTool } from './make-fae-tool.js';
import { makeOutputCollector } from './output-collector.js';
import { checkArgNames, describeType, optionalInteger } from './tool-args.js';
import type { ToolArgs } from './tool-args.js';

const toolName = 'runCommand';
export const defaultTimeoutMs = 30_000;
export const largestTimeoutMs = 120_000;
const outputCapBytes = 32 * 1024;
/** After the main process exits, how long leftover holders of its pipes may keep them. */
const drainGraceMs = 500;

type CommandSpec = { file: string; argv: string[]; shown: string };

function readCommand(args: ToolArgs): CommandSpec {
  const command = args.command;
  if (command === undefined || command === null) throw Error(`${toolName}: command is required`);
  if (typeof command === 'string') {
    if (command.trim() === '') throw Error(`${toolName}: command must not be empty`);
    return { file: '/bin/sh', argv: ['-c', command], shown: command };
  }
  if (Array.isArray(command)) {
    if (command.length === 0) throw Error(`${toolName}: command array must not be empty`);
    const words = command.map((word: unknown, index) => {
      if (typeof word !== 'string') {
        throw Error(`${toolName}: command[${index}] must be a string, got ${describeType(word)}`);
      }
      return word;
    });
    const [file, ...rest] = words;
    if (file === undefined || file === '') throw Error(`${toolName}: command[0] must name a program`);
    return { file, argv: rest, shown: words.join(' ') };
  }
  throw Error(`${toolName}: command must be a string or an array of strings, got ${describeType(command)}`);
}

/** Kills the child's whole process group (it leads one: `detached`). */
function killGroup(child: ChildProcess): void {
  if (child.pid === undefined) return;
  try {
    process.kill(-child.pid, 'SIGKILL');
  } catch {
    // ESRCH: the group is already gone.
  }
}

function describeOutcome(
  timedOut: boolean,
  timeoutMs: number,
  exitCode: number | null,
  signal: string | null,
): string {
  if (timedOut) return `timed out after ${timeoutMs} ms; the command's process group was killed`;
  if (exitCode !== null) return `exited with code ${exitCode}`;
  return `killed by ${signal ?? 'a signal'}`;
}

function runChild(root: string, spec: CommandSpec, timeoutMs: number) {
  return new Promise<Record<string, unknown>>((resolve, reject) => {
    let child: ChildProcess;
    try {
      child = spawn(spec.file, spec.argv, {
        cwd: root,
        env: makeChildEnv(process.env, root),
        stdio: ['ignore', 'pipe', 'pipe'],
        detached: true,
      });
    } catch (error) {
      // e.g. a NUL byte in an argument
      reject(Error(`${toolName}: cannot start ${JSON.stringify(spec.shown)}: ${error instanceof Error ? error.message : String(error)}`));
      return;
    }
    const stdout = makeOutputCollector(outputCapBytes);
    const stderr = makeOutputCollector(outputCapBytes);
    child.stdout?.on('data', (chunk: Buffer) => stdout.add(chunk));
    child.stderr?.on('data', (chunk: Buffer) => stderr.add(chunk));

    let timedOut = false;
    let settled = false;
    let exitCode: number | null = null;
    let exitSignal: string | null = null;
    let drainTimer: ReturnType<typeof setTimeout> | undefined;

    const finish = () => {
      if (settled) return;
      settled = true;
      clearTimeout(timeoutTimer);
      if (drainTimer !== undefined) clearTimeout(drainTimer);
      resolve({
        command: spec.shown,
        exitCode,
        signal: exitSignal,
        timedOut,
        status: describeOutcome(timedOut, timeoutMs, exitCode, exitSignal),
        stdout: stdout.text(),
        stderr: stderr.text(),
        stdoutBytes: stdout.totalBytes,
        stderrBytes: stderr.totalBytes,
      });
    };
    // Stops waiting for pipes held open by leftovers (e.g. `sleep 100 &`).
    const abandonPipes = () => {
      killGroup(child);
      child.stdout?.destroy();
      child.stderr?.destroy();
      finish();
    };

    const timeoutTimer = setTimeout(() => {
      timedOut = true;
      killGroup(child);
      drainTimer = setTimeout(abandonPipes, drainGraceMs);
    }, timeoutMs);

    child.on('error', error => {
      if (settled) return;
      settled = true;
      clearTimeout(timeoutTimer);
      const code = (error as { code?: unknown }).code;
      reject(
        Error(
          code === 'ENOENT'
            ? `${toolName}: command not found: ${JSON.stringify(spec.file)}`
            : `${toolName}: cannot start ${JSON.stringify(spec.shown)} (${String(code ?? error.message)})`,
        ),
      );
    });
    child.on('exit', (code, signal) => {
      exitCode = code;
      exitSignal = signal;
      if (!timedOut) drainTimer = setTimeout(abandonPipes, drainGraceMs);
    });
    child.on('close', (code, signal) => {
      exitCode = code;
      exitSignal = signal;
      finish();
    });
  });
}

export function make(_powers?: unknown, _context?: unknown, options?: { env?: Env }) {
  const root = toolRootFromEnv(options?.env, toolName);
  return makeFaeTool({
    name: toolName,
    description:
      'Run a command in the working directory and return its exit code, stdout and stderr (each capped). A string runs through /bin/sh; an array runs the program directly.',
    parameters: {
      type: 'object',
      properties: {
        command: {
          anyOf: [
            { type: 'string', description: 'A shell command line, run with /bin/sh -c.' },
            {
              type: 'array',
              items: { type: 'string' },
              description: 'Program and arguments, run without a shell.',
            },
          ],
          description: 'What to run.',
        },
        timeoutMs: {
          type: 'integer',
          minimum: 1,
          maximum: largestTimeoutMs,
          description: `Kill the command after this many milliseconds (default ${defaultTimeoutMs}, at most ${largestTimeoutMs}).`,
        },
      },
      required: ['command'],
      additionalProperties: false,
    },
    help: [
      'runCommand({ command, timeoutMs? })',
      '  -> { command, exitCode, signal, timedOut, status, stdout, stderr, stdoutBytes, stderrBytes }',
      'command: a string (run by /bin/sh -c) or an array [program, ...args] (no shell).',
      `Runs in the tool root. timeoutMs defaults to ${defaultTimeoutMs} and may not exceed ${largestTimeoutMs};`,
      'at the timeout the whole process group is killed and status says "timed out after N ms".',
      `stdout and stderr are each cut at ${outputCapBytes} bytes with a marker giving the full size.`,
      'A non-zero exit is a result, not an error. LAL_* and credential-like variables are not passed on.',
    ].join('\n'),
    run: args => {
      checkArgNames(toolName, args, ['command', 'timeoutMs']);
      const spec = readCommand(args);
      const timeoutMs =
        optionalInteger(toolName, args, 'timeoutMs', { min: 1, max: largestTimeoutMs }) ??
        defaultTimeoutMs;
      return runChild(root, spec, timeoutMs);
    },
  });
}
