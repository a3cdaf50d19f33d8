/**
 * `runCommand`: runs a shell command (string, through /bin/sh -c) or an argv
 * array (no shell) inside a bubblewrap sandbox whose only writable folder is
 * the tool root (see sandbox/sandbox-plan.ts). The child gets its own process
 * group, killed whole when the timeout (bounded) runs out or when its caller
 * stops the call (`executeUntil`'s `stopped`: the turn was cancelled,
 * behaviour 6.7); stdout and stderr are each capped with a marker; its
 * environment comes from an allow list.
 *
 * No sandbox, no command: where bubblewrap is missing or cannot make its
 * namespaces, the tool refuses in one line saying how to install it, unless
 * the host opted out with FAE_RUN_COMMAND_UNSANDBOXED=1 (then commands run
 * with the worker's rights, in the root, and can reach outside it).
 */
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import type { Env } from '../providers/types.js';
import { makeChildEnv } from './lib/child-env.js';
import { checkSandbox } from './lib/sandbox/sandbox-check.js';
import {
  findSandboxPrograms,
  planSandboxedRun,
  SANDBOX_HOME,
  SANDBOX_PATH,
  SANDBOX_ROOT,
} from './lib/sandbox/sandbox-plan.js';
import { readSandboxSettings, type SandboxSettings } from './lib/sandbox/sandbox-settings.js';
import { toolRootFromEnv } from './lib/confine.js';
import { makeFaeTool } from './lib/make-fae-tool.js';
import { makeOutputCollector } from './lib/output-collector.js';
import { commandLine, integer, optional, parameters, type ValuesOf } from './lib/fae-parameters.js';
import { describeError } from '../providers/describe-error.js';

const toolName = 'runCommand';
export const defaultTimeoutMs = 30_000;
harden(defaultTimeoutMs);
export const largestTimeoutMs = 120_000;
harden(largestTimeoutMs);
const outputCapBytes = 32 * 1024;
/** After the main process exits, how long leftover holders of its pipes may keep them. */
const drainGraceMs = 500;

type CommandSpec = { file: string; argv: string[]; shown: string };
/** What is actually started: the command itself, or the sandbox wrapping it. */
type Launch = {
  file: string;
  argv: string[];
  env: Record<string, string>;
  sandbox: string;
  release(): void;
  /** When the wrapper, not the command, says the program could not be started (bwrap's execvp): why. */
  notStarted?(stderr: string): string | undefined;
};

/** What runs: a line through the shell, or a program and its arguments without one. */
function commandSpec(command: string | string[]): CommandSpec {
  if (typeof command === 'string')
    return { file: '/bin/sh', argv: ['-c', command], shown: command };
  const [file = '', ...rest] = command;
  return { file, argv: rest, shown: command.join(' ') };
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
  ended: { timedOut: boolean; stopped: string | undefined },
  timeoutMs: number,
  exitCode: number | null,
  signal: string | null,
): string {
  if (ended.stopped !== undefined)
    return `stopped by its caller (${ended.stopped}); the command's process group was killed`;
  if (ended.timedOut)
    return `timed out after ${timeoutMs} ms; the command's process group was killed`;
  if (exitCode !== null) return `exited with code ${exitCode}`;
  return `killed by ${signal ?? 'a signal'}`;
}

/** Why the caller stopped the call, in its words. */
const whyStopped = (stop: AbortSignal): string =>
  typeof stop.reason === 'string' ? stop.reason : 'the call was stopped';

/** The call was stopped before its command started: nothing ran. */
const notStarted = (spec: CommandSpec, stop: AbortSignal): Error =>
  Error(`${toolName}: ${JSON.stringify(spec.shown)} was not run: ${whyStopped(stop)}`);

function runChild(
  root: string,
  spec: CommandSpec,
  launch: Launch,
  timeoutMs: number,
  stop: AbortSignal,
) {
  return new Promise<Record<string, unknown>>((resolve, reject) => {
    if (stop.aborted) {
      launch.release();
      reject(notStarted(spec, stop));
      return;
    }
    let child: ChildProcess;
    try {
      child = spawn(launch.file, launch.argv, {
        cwd: root,
        env: launch.env,
        stdio: ['ignore', 'pipe', 'pipe'],
        detached: true,
      });
    } catch (error) {
      // e.g. a NUL byte in an argument
      launch.release();
      reject(
        Error(`${toolName}: cannot start ${JSON.stringify(spec.shown)}: ${describeError(error)}`, {
          cause: error,
        }),
      );
      return;
    }
    const stdout = makeOutputCollector(outputCapBytes);
    const stderr = makeOutputCollector(outputCapBytes);
    child.stdout?.on('data', (chunk: Buffer) => stdout.add(chunk));
    child.stderr?.on('data', (chunk: Buffer) => stderr.add(chunk));

    let timedOut = false;
    let stopped: string | undefined;
    let settled = false;
    let exitCode: number | null = null;
    let exitSignal: string | null = null;
    let drainTimer: ReturnType<typeof setTimeout> | undefined;

    const finish = () => {
      if (settled) return;
      settled = true;
      clearTimeout(timeoutTimer);
      stop.removeEventListener('abort', onStop);
      if (drainTimer !== undefined) clearTimeout(drainTimer);
      launch.release();
      const why = exitCode === 1 ? launch.notStarted?.(stderr.text()) : undefined;
      if (why !== undefined) {
        reject(
          Error(
            why === 'No such file or directory'
              ? `${toolName}: command not found: ${JSON.stringify(spec.file)}`
              : `${toolName}: cannot start ${JSON.stringify(spec.shown)} (${why})`,
          ),
        );
        return;
      }
      resolve({
        command: spec.shown,
        sandbox: launch.sandbox,
        exitCode,
        signal: exitSignal,
        timedOut,
        stopped: stopped !== undefined,
        status: describeOutcome({ timedOut, stopped }, timeoutMs, exitCode, exitSignal),
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

    // The timeout and the caller's stop end it alike: the whole group killed, the pipes given a grace.
    const killed = () => {
      killGroup(child);
      if (drainTimer === undefined) drainTimer = setTimeout(abandonPipes, drainGraceMs);
    };
    const timeoutTimer = setTimeout(() => {
      if (stopped !== undefined) return;
      timedOut = true;
      killed();
    }, timeoutMs);
    const onStop = () => {
      if (settled || timedOut) return;
      stopped = whyStopped(stop);
      killed();
    };
    stop.addEventListener('abort', onStop, { once: true });

    child.on('error', error => {
      if (settled) return;
      settled = true;
      clearTimeout(timeoutTimer);
      stop.removeEventListener('abort', onStop);
      launch.release();
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
      if (drainTimer === undefined) drainTimer = setTimeout(abandonPipes, drainGraceMs);
    });
    child.on('close', (code, signal) => {
      exitCode = code;
      exitSignal = signal;
      finish();
    });
  });
}

/** One line: the command was not run, why, and how to fix it. */
const refusal = (why: string): Error =>
  Error(`${toolName}: no sandbox, so no command was run: ${why}`);

/** Whether bubblewrap works here, asked once per bwrap found (the PATH can change). */
const sandboxChecks = new Map<string, Promise<string | undefined>>();

async function prepareLaunch(
  root: string,
  settings: SandboxSettings,
  spec: CommandSpec,
): Promise<Launch> {
  if (settings.unsandboxed) {
    return {
      file: spec.file,
      argv: spec.argv,
      env: makeChildEnv(process.env, {
        path: process.env.PATH ?? SANDBOX_PATH,
        home: root,
        cwd: root,
      }),
      sandbox: 'none (FAE_RUN_COMMAND_UNSANDBOXED)',
      release: () => {},
    };
  }
  const searchPath = process.env.PATH;
  const programs = findSandboxPrograms(searchPath);
  if (typeof programs === 'string') throw refusal(programs);
  let check = sandboxChecks.get(programs.bwrap);
  if (check === undefined) {
    check = checkSandbox(searchPath);
    sandboxChecks.set(programs.bwrap, check);
  }
  const problem = await check;
  if (problem !== undefined) throw refusal(problem);
  const plan = planSandboxedRun(programs, root, settings, spec);
  if (typeof plan === 'string') throw refusal(plan);
  return {
    file: plan.file,
    argv: plan.argv,
    env: makeChildEnv(process.env, { path: SANDBOX_PATH, home: SANDBOX_HOME, cwd: SANDBOX_ROOT }),
    sandbox: 'bubblewrap',
    release: plan.release,
    notStarted: stderr => {
      const prefix = `bwrap: execvp ${spec.file}: `;
      return stderr.startsWith(prefix) ? stderr.slice(prefix.length).split('\n')[0] : undefined;
    },
  };
}

const runCommandParameters = {
  command: commandLine('What to run.', {
    line: 'A shell command line, run with /bin/sh -c.',
    words: 'Program and arguments, run without a shell.',
  }),
  timeoutMs: optional(
    integer(
      `Kill the command after this many milliseconds (default ${defaultTimeoutMs}, at most ${largestTimeoutMs}).`,
      { min: 1, max: largestTimeoutMs },
    ),
  ),
};

export const make = (_powers?: unknown, _context?: unknown, options?: { env?: Env }) => {
  const root = toolRootFromEnv(options?.env, toolName);
  const settings = readSandboxSettings(options?.env, toolName);
  return makeFaeTool({
    name: toolName,
    description: `Run a command in the working directory (${SANDBOX_ROOT} inside a sandbox: the system read-only, no network, /tmp private) and return its exit code, stdout and stderr (each capped). A string runs through /bin/sh; an array runs the program directly.`,
    parameters: parameters(runCommandParameters),
    returns:
      '{ command, sandbox, exitCode, signal, timedOut, stopped, status, stdout, stderr, stdoutBytes, stderrBytes }',
    help: [
      'command: a string (run by /bin/sh -c) or an array [program, ...args] (no shell).',
      `Runs in a bubblewrap sandbox: the tool root is ${SANDBOX_ROOT} and the only writable folder besides a private /tmp (HOME),`,
      'the system is read-only, there is no network, and processes, memory, CPU time and file size are limited.',
      `timeoutMs defaults to ${defaultTimeoutMs} and may not exceed ${largestTimeoutMs};`,
      'at the timeout the whole process group is killed and status says "timed out after N ms";',
      'so it is when the caller stops the call (its turn cancelled): stopped is true and status says why.',
      `stdout and stderr are each cut at ${outputCapBytes} bytes with a marker giving the full size.`,
      'A non-zero exit is a result, not an error. The environment is only PATH, HOME, LANG, TERM and PWD.',
      'Without a working sandbox the tool refuses, unless its host set FAE_RUN_COMMAND_UNSANDBOXED=1.',
    ].join('\n'),
    run: (
      { command, timeoutMs = defaultTimeoutMs }: ValuesOf<typeof runCommandParameters>,
      stop: AbortSignal,
    ) => {
      const spec = commandSpec(command);
      return prepareLaunch(root, settings, spec).then(launch =>
        runChild(root, spec, launch, timeoutMs, stop),
      );
    },
  });
};
harden(make);
