// runCommand: runs in the root, returns exit code and output, caps output
// with a marker, kills the whole process group at its bound, and gives the
// child only an allow-listed environment. Each test runs with the host's
// opt-out (no sandbox) and, where bubblewrap works, in the sandbox
// (tools-sandbox.test.ts has what the sandbox itself must hold).
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { E } from '@endo/far';
import { existsSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import * as runCommand from '../tools/run-command.js';
import { largestTimeoutMs } from '../tools/run-command.js';
import { makeChildEnv } from '../tools/lib/child-env.js';
import { checkSandbox } from '../tools/lib/sandbox/sandbox-check.js';
import { SANDBOX_PATH } from '../tools/lib/sandbox/sandbox-plan.js';
import { makeTempDir, makeTool, runningWith } from './tools-helpers.js';
import { lingering } from './support/lingering-command.js';

type CommandResult = {
  command: string;
  exitCode: number | null;
  signal: string | null;
  timedOut: boolean;
  status: string;
  stdout: string;
  stderr: string;
  stdoutBytes: number;
  stderrBytes: number;
};

let root: string;
beforeEach(() => {
  root = makeTempDir('run');
});
afterEach(() => {
  rmSync(root, { recursive: true, force: true });
});

const sandboxed = (await checkSandbox()) === undefined;
const modes = [
  {
    mode: 'unsandboxed (FAE_RUN_COMMAND_UNSANDBOXED=1)',
    env: { FAE_RUN_COMMAND_UNSANDBOXED: '1' },
    insideRoot: () => realpathSync(root),
  },
  ...(sandboxed ? [{ mode: 'in bubblewrap', env: {}, insideRoot: () => '/work' }] : []),
];

describe.each(modes)('runCommand $mode', ({ env, insideRoot }) => {
  async function run(args: Record<string, unknown>): Promise<CommandResult> {
    const tool = makeTool(runCommand, { FAE_CWD: root, ...env });
    return (await E(tool).execute(harden(args))) as CommandResult;
  }

  it('a program file without the execute bit is refused as not executable, not as missing', async () => {
    writeFileSync(`${root}/plain.sh`, 'echo ran\n', { mode: 0o644 });
    await expect(run({ command: ['./plain.sh'] })).rejects.toThrow(
      /^runCommand: cannot start "\.\/plain\.sh" \((EACCES|Permission denied)\)$/,
    );
  });

  it('runs a shell string in the root and returns exit code, stdout and stderr', async () => {
    const result = await run({ command: 'pwd; echo oops >&2; exit 3' });
    expect(result.stdout).toBe(`${insideRoot()}\n`);
    expect(result.stderr).toBe('oops\n');
    expect(result.exitCode).toBe(3);
    expect(result.timedOut).toBe(false);
    expect(result.status).toBe('exited with code 3');
  });

  it('runs an argv array without a shell', async () => {
    const result = await run({ command: ['printf', '%s|', 'a b', '$HOME', ';ls'] });
    expect(result.stdout).toBe('a b|$HOME|;ls|');
    expect(result.exitCode).toBe(0);
  });

  it('kills the command and its process group at the bound', async () => {
    // The shell starts a grandchild that would outlive a kill of the shell alone.
    const marker = `30.${process.pid}${Math.floor(Math.random() * 1e6)}`;
    const result = await run({ command: `sleep ${marker} & echo started; wait`, timeoutMs: 300 });
    expect(result.timedOut).toBe(true);
    expect(result.status).toBe("timed out after 300 ms; the command's process group was killed");
    expect(result.exitCode).toBe(null);
    expect(result.signal).toBe('SIGKILL');
    expect(result.stdout).toBe('started\n');
    await expect.poll(() => runningWith(marker).length).toBe(0);
  });

  it('stopped by its caller (executeUntil), the whole process group is killed and its later write never happens', async () => {
    const tool = makeTool(runCommand, { FAE_CWD: root, ...env });
    // Long past every bound of the test: only the stop can end it in time.
    const { marker, command } = lingering();
    let stop: (why: string) => void = () => {};
    const stopped = new Promise<string>(resolve => {
      stop = resolve;
    });
    const pending = E(tool).executeUntil(
      harden({ command, timeoutMs: largestTimeoutMs }),
      stopped,
    ) as Promise<CommandResult & { stopped: boolean }>;
    await expect.poll(() => runningWith(marker).length).toBeGreaterThan(0);
    stop('its turn was stopped');
    // The call answers once the child closed: the kill came from the stop, not the timeout.
    const result = await pending;
    expect(result.stopped).toBe(true);
    expect(result.timedOut).toBe(false);
    expect(result.status).toBe(
      "stopped by its caller (its turn was stopped); the command's process group was killed",
    );
    expect(result.signal).toBe('SIGKILL');
    await expect.poll(() => runningWith(marker).length).toBe(0);
    // The shell that would write it is gone with the sleep.
    expect(existsSync(`${root}/out.txt`)).toBe(false);
  });

  it('a call stopped before its command started runs nothing and says so', async () => {
    const tool = makeTool(runCommand, { FAE_CWD: root, ...env });
    await expect(
      E(tool).executeUntil(
        harden({ command: 'echo hi > out.txt' }),
        Promise.resolve('its turn was stopped'),
      ),
    ).rejects.toThrow('runCommand: "echo hi > out.txt" was not run: its turn was stopped');
    expect(existsSync(`${root}/out.txt`)).toBe(false);
  });

  it('a stop that comes after the answer changes nothing', async () => {
    const tool = makeTool(runCommand, { FAE_CWD: root, ...env });
    let stop: (why: string) => void = () => {};
    const stopped = new Promise<string>(resolve => {
      stop = resolve;
    });
    const result = (await E(tool).executeUntil(
      harden({ command: 'echo done' }),
      stopped,
    )) as CommandResult & { stopped: boolean };
    stop('it answered');
    expect(result.stopped).toBe(false);
    expect(result.status).toBe('exited with code 0');
    expect(result.stdout).toBe('done\n');
  });

  it('returns once the command exits even when a background job holds its output', async () => {
    const result = await run({ command: 'sleep 30 & echo started', timeoutMs: 60_000 });
    expect(result.timedOut).toBe(false);
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toBe('started\n');
  });

  it('caps stdout and stderr separately with a marker giving the full size', async () => {
    const result = await run({
      command: "head -c 200000 /dev/zero | tr '\\0' a; head -c 50000 /dev/zero | tr '\\0' b >&2",
    });
    expect(result.stdoutBytes).toBe(200_000);
    expect(result.stderrBytes).toBe(50_000);
    expect(result.stdout).toBe(
      `${'a'.repeat(32 * 1024)}\n[... output cut: showing the first ${32 * 1024} of 200000 bytes]`,
    );
    expect(result.stderr.endsWith(`of 50000 bytes]`)).toBe(true);
    expect(result.stderr.startsWith('b'.repeat(32 * 1024))).toBe(true);
  });

  it('gives the child only PATH, HOME, LANG, TERM and PWD: no LAL_* or other variable of the worker', async () => {
    const saved = { ...process.env };
    process.env.LAL_AUTH_TOKEN = 'sk-do-not-leak';
    process.env.LAL_HOST = 'https://api.anthropic.com';
    process.env.OPENAI_API_KEY = 'sk-other';
    process.env.HARMLESS_SETTING = 'visible';
    try {
      const result = await run({ command: 'env' });
      expect(result.stdout).not.toContain('sk-do-not-leak');
      expect(result.stdout).not.toContain('sk-other');
      expect(result.stdout).not.toMatch(/^LAL_/m);
      expect(result.stdout).not.toContain('HARMLESS_SETTING');
      expect(
        result.stdout
          .trim()
          .split('\n')
          .map(line => line.split('=')[0])
          .sort(),
      ).toEqual(['HOME', 'LANG', 'PATH', 'PWD', 'TERM']);
    } finally {
      for (const name of ['LAL_AUTH_TOKEN', 'LAL_HOST', 'OPENAI_API_KEY', 'HARMLESS_SETTING']) {
        if (saved[name] === undefined) delete process.env[name];
        else process.env[name] = saved[name];
      }
    }
  });

  it('refuses a timeout above the bound, and bad commands, clearly', async () => {
    await expect(run({ command: 'true', timeoutMs: largestTimeoutMs + 1 })).rejects.toThrow(
      /timeoutMs must be between 1 and 120000/,
    );
    await expect(run({ command: '' })).rejects.toThrow(/command must not be empty/);
    await expect(run({ command: [] })).rejects.toThrow(/command array must not be empty/);
    await expect(run({ command: ['ls', 3] })).rejects.toThrow(/command\[1\] must be a string/);
    await expect(run({ command: { program: 'ls' } })).rejects.toThrow(
      /command must be a string or an array of strings/,
    );
    await expect(run({})).rejects.toThrow(/^runCommand: command is required$/);
    await expect(run({ command: null })).rejects.toThrow(/^runCommand: command is required$/);
    await expect(run({ command: ['', 'x'] })).rejects.toThrow(/command\[0\] must name a program/);
    await expect(run({ command: ['ls', null] })).rejects.toThrow(
      /^runCommand: command\[1\] must be a string, got null$/,
    );
    // spawn itself throws on a NUL byte: a clear refusal, not a crash.
    await expect(run({ command: ['echo', 'a\u0000b'] })).rejects.toThrow(
      'runCommand: cannot start "echo a\\u0000b": ',
    );
    await expect(run({ command: ['no-such-program-lal-fae'] })).rejects.toThrow(
      /command not found: "no-such-program-lal-fae"/,
    );
  });
});

describe("runCommand with the host's opt-out", () => {
  const run = async (command: string): Promise<CommandResult & { signal: string | null }> =>
    (await E(makeTool(runCommand, { FAE_CWD: root, FAE_RUN_COMMAND_UNSANDBOXED: '1' })).execute(
      harden({ command }),
    )) as CommandResult & { signal: string | null };

  it('a command killed by a signal says which, with no exit code', async () => {
    const result = await run('echo before; kill -TERM $$; echo after');
    expect(result).toMatchObject({
      exitCode: null,
      signal: 'SIGTERM',
      status: 'killed by SIGTERM',
      stdout: 'before\n',
      timedOut: false,
    });
  });

  it('a worker without PATH still gives commands the standard one', async () => {
    vi.stubEnv('PATH', undefined);
    try {
      const result = await run('echo "$PATH"');
      expect(result.stdout).toBe(`${SANDBOX_PATH}\n`);
    } finally {
      vi.unstubAllEnvs();
    }
  });
});

describe('child-env', () => {
  it('builds the environment from the allow list only; LANG only when it is a locale name', () => {
    const where = { path: '/usr/bin:/bin', home: '/tmp', cwd: '/work' };
    const source = {
      PATH: '/host/bin',
      LAL_AUTH_TOKEN: 'x',
      SSH_AUTH_SOCK: '/s',
      AWS_SECRET_ACCESS_KEY: 'k',
      LANG: 'de_DE.UTF-8',
      TERM: 'xterm',
    };
    expect(makeChildEnv(source, where)).toEqual({
      PATH: '/usr/bin:/bin',
      HOME: '/tmp',
      LANG: 'de_DE.UTF-8',
      TERM: 'dumb',
      PWD: '/work',
    });
    expect(makeChildEnv({ LANG: 'C; rm -rf /' }, where).LANG).toBe('C.UTF-8');
  });
});
