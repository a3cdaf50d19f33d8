// runCommand inside bubblewrap: each confinement is shown by a command that
// works without the sandbox (the host's opt-out, or bubblewrap with
// capabilities kept) and fails inside it. Where bubblewrap cannot run, the
// suite is skipped with the reason; under CI=true that fails the run.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { E } from '@endo/far';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { homedir } from 'node:os';
import path from 'node:path';
import { makeMailHost } from '../sim/mail-host/index.js';
import * as runCommand from '../tools/run-command.js';
import { checkSandbox } from '../tools/lib/sandbox/sandbox-check.js';
import { bubblewrapArgs, findSandboxPrograms } from '../tools/lib/sandbox/sandbox-plan.js';
import { readSandboxSettings } from '../tools/lib/sandbox/sandbox-settings.js';
import { startAgent, type AgentRun } from './support/agent-harness.js';
import { callTool, say } from './support/scripted-provider.js';
import { makeTempDir, makeTool } from './tools-helpers.js';
import { skippedBecause } from './support/skipped-because.js';

type CommandResult = {
  sandbox: string;
  exitCode: number | null;
  timedOut: boolean;
  status: string;
  stdout: string;
  stderr: string;
};

const problem = await checkSandbox();
if (problem !== undefined) console.warn(`sandbox tests skipped: ${problem}`);

let root: string;
let outside: string;
beforeEach(() => {
  root = makeTempDir('sandbox-root');
  outside = makeTempDir('sandbox-outside');
});
afterEach(() => {
  rmSync(root, { recursive: true, force: true });
  rmSync(outside, { recursive: true, force: true });
  vi.unstubAllEnvs();
});

async function run(
  command: string | string[],
  env: Record<string, string> = {},
  timeoutMs?: number,
): Promise<CommandResult> {
  const tool = makeTool(runCommand, { FAE_CWD: root, ...env });
  return (await E(tool).execute(
    harden({ command, ...(timeoutMs === undefined ? {} : { timeoutMs }) }),
  )) as CommandResult;
}
/** Live processes whose command line holds `marker` (in any PID namespace: the host sees them all), and are named `name` when given. */
function runningWith(marker: string, wanted?: string): number[] {
  const found: number[] = [];
  for (const name of readdirSync('/proc').filter(entry => /^\d+$/.test(entry))) {
    try {
      if (!readFileSync(`/proc/${name}/cmdline`, 'utf8').includes(marker)) continue;
      if (wanted !== undefined && readFileSync(`/proc/${name}/comm`, 'utf8').trim() !== wanted)
        continue;
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      if (stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z') found.push(Number(name));
    } catch {
      // Exited meanwhile.
    }
  }
  return found;
}
const projectRoot = new URL('..', import.meta.url).pathname;
const unsandboxed = (command: string | string[]) =>
  run(command, { FAE_RUN_COMMAND_UNSANDBOXED: '1' });

describe('runCommand without a sandbox', () => {
  it('refuses in one line saying how to install bubblewrap, and runs only with the explicit opt-out', async () => {
    vi.stubEnv('PATH', '');
    const refused = run('echo ran > ran.txt');
    await expect(refused).rejects.toThrow(
      /^runCommand: no sandbox, so no command was run: bubblewrap \(bwrap\) was not found on PATH: install bubblewrap \(Debian\/Ubuntu: apt-get install bubblewrap.*FAE_RUN_COMMAND_UNSANDBOXED=1/,
    );
    await refused.catch((error: Error) => expect(error.message).not.toContain('\n'));
    expect(existsSync(path.join(root, 'ran.txt'))).toBe(false);

    const ran = await unsandboxed('echo ran > ran.txt');
    expect(ran.exitCode).toBe(0);
    expect(ran.sandbox).toBe('none (FAE_RUN_COMMAND_UNSANDBOXED)');
    expect(readFileSync(path.join(root, 'ran.txt'), 'utf8')).toBe('ran\n');
  });

  it('refuses an opt-out value it does not understand', () => {
    expect(() =>
      makeTool(runCommand, { FAE_CWD: root, FAE_RUN_COMMAND_UNSANDBOXED: 'maybe' }),
    ).toThrow(/FAE_RUN_COMMAND_UNSANDBOXED must be 1 or 0/);
  });
});

describe.skipIf(problem !== undefined)(`runCommand in bubblewrap${skippedBecause(problem)}`, () => {
  it("writes inside FAE_CWD (at /work inside); the files are the host's to read and remove", async () => {
    const result = await run('pwd; echo made > made.txt; mkdir -p sub && echo deep > sub/deep.txt');
    expect(result).toMatchObject({ sandbox: 'bubblewrap', exitCode: 0, stdout: '/work\n' });
    for (const file of ['made.txt', 'sub/deep.txt', 'sub']) {
      expect(statSync(path.join(root, file)).uid).toBe(process.getuid!());
    }
    expect(readFileSync(path.join(root, 'sub', 'deep.txt'), 'utf8')).toBe('deep\n');
    rmSync(path.join(root, 'sub'), { recursive: true });
    rmSync(path.join(root, 'made.txt'));
  });

  it('cannot write outside FAE_CWD', async () => {
    const command = `echo escaped > ${outside}/escaped.txt`;
    expect((await unsandboxed(command)).exitCode).toBe(0);
    rmSync(path.join(outside, 'escaped.txt'));
    const inside = await run(command);
    expect(inside.exitCode).not.toBe(0);
    expect(existsSync(path.join(outside, 'escaped.txt'))).toBe(false);
    // Nor into the system, which is there but read-only.
    const system = await run('touch /usr/lal-fae-escape; touch /etc/passwd');
    expect(system.stderr).toMatch(/Read-only file system/);
    expect(existsSync('/usr/lal-fae-escape')).toBe(false);
  });

  it("cannot read /root or the host's home", async () => {
    const secretFile = path.join(homedir(), `.lal-fae-sandbox-probe-${process.pid}`);
    writeFileSync(secretFile, 'host-home-secret\n', { mode: 0o600 });
    try {
      const command = `cat ${secretFile}; ls -a /root`;
      expect((await unsandboxed(command)).stdout).toContain('host-home-secret');
      const inside = await run(command);
      expect(inside.stdout).not.toContain('host-home-secret');
      expect(inside.stderr).toMatch(/No such file or directory/);
      expect(inside.exitCode).not.toBe(0);
    } finally {
      rmSync(secretFile, { force: true });
    }
  });

  it("cannot reach a listener on the host's 127.0.0.1", async () => {
    let connections = 0;
    const server: Server = createServer(socket => {
      connections += 1;
      socket.resume();
      socket.end();
    });
    await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve));
    try {
      const port = (server.address() as { port: number }).port;
      const command = ['bash', '-c', `echo hello > /dev/tcp/127.0.0.1/${port}`];
      expect((await unsandboxed(command)).exitCode).toBe(0);
      await expect.poll(() => connections).toBe(1);
      const inside = await run(command);
      expect(inside.exitCode).not.toBe(0);
      expect(inside.stderr).toMatch(/Connection refused|Network is unreachable/);
      expect(connections).toBe(1);
      // The host's explicit opt-in gives the sandbox the host's network.
      expect((await run(command, { FAE_SANDBOX_ALLOW_NETWORK: '1' })).exitCode).toBe(0);
      await expect.poll(() => connections).toBe(2);
    } finally {
      await new Promise(resolve => {
        server.close(resolve);
      });
    }
  });

  it("gets only the allow-listed environment, never a secret of the worker's", async () => {
    vi.stubEnv('FAKE_SERVICE_SECRET', 'fake-secret-value-31337');
    vi.stubEnv('AWS_SECRET_ACCESS_KEY', 'fake-aws-key-31337');
    vi.stubEnv('LAL_AUTH_TOKEN', 'fake-token-31337');
    const result = await run(['env']);
    expect(result.stdout).not.toContain('31337');
    const names = result.stdout
      .trim()
      .split('\n')
      .map(line => line.split('=')[0])
      .sort();
    expect(names).toEqual(['HOME', 'LANG', 'PATH', 'PWD', 'TERM']);
    expect(result.stdout).toContain('HOME=/tmp\n');
  });

  it('has no capabilities: a read-only bind cannot be remounted writable', async () => {
    // With capabilities kept, the same remount works and writes through to the host.
    const probe = makeTempDir('sandbox-probe');
    try {
      const { bwrap } = findSandboxPrograms(process.env.PATH) as { bwrap: string };
      const kept = bubblewrapArgs(root, readSandboxSettings({}, 'test')).filter(
        (arg, index, all) =>
          arg !== 'ALL' && arg !== '--cap-drop' && all[index - 1] !== '--cap-drop',
      );
      const withCaps = spawnSync(
        bwrap,
        [
          ...kept,
          '--ro-bind',
          probe,
          '/probe',
          '--',
          '/bin/sh',
          '-c',
          'mount -o remount,rw,bind /probe && echo through > /probe/x',
        ],
        { encoding: 'utf8' },
      );
      expect(withCaps.status).toBe(0);
      expect(readFileSync(path.join(probe, 'x'), 'utf8')).toBe('through\n');

      // The remount alone proves an escape; nothing is written, so a breach leaves nothing on the host.
      const inside = await run(
        'grep CapEff /proc/self/status; mount -o remount,rw,bind /usr && echo REMOUNTED',
      );
      expect(inside.stdout).toMatch(/CapEff:\s+0000000000000000/);
      expect(inside.stdout).not.toContain('REMOUNTED');
      expect(inside.exitCode).not.toBe(0);
    } finally {
      rmSync(probe, { recursive: true, force: true });
    }
  });

  it('a memory hog is stopped by the memory limit', async () => {
    const result = await run(`x=$(head -c 200000000 /dev/zero | tr '\\0' a); echo got \${#x}`, {
      FAE_SANDBOX_MEMORY_MB: '64',
    });
    expect(result.stdout).not.toContain('got 200000000');
    expect(result.exitCode).not.toBe(0);
    expect(result.timedOut).toBe(false);
  });

  it('memory is bounded for the command as a whole, not only per process', async () => {
    // Six processes of 30 MB each: each fits the per-process bound, together they pass 100 MB.
    const command = `for i in 1 2 3 4 5 6; do perl -e '$x = "a" x 30_000_000; sleep 1; print "ok\\n"' & done; wait`;
    const roomy = await run(command, { FAE_SANDBOX_MEMORY_MB: '1000' });
    expect(roomy.stdout).toBe('ok\n'.repeat(6));
    const bounded = await run(command, { FAE_SANDBOX_MEMORY_MB: '100' });
    expect(bounded.stdout.split('ok').length - 1).toBeLessThan(6);
    const alone = await run(`perl -e '$x = "a" x 30_000_000; print "ok\\n"'`, {
      FAE_SANDBOX_MEMORY_MB: '100',
    });
    expect(alone.stdout).toBe('ok\n');
  });

  it('the process limit holds for a root worker too, and the next command runs', async () => {
    // 40 sleepers against a limit of 16: only some start.
    const result = await run(
      'i=0; while [ $i -lt 40 ]; do sleep 5 & i=$((i+1)); done; echo started',
      { FAE_SANDBOX_MAX_PROCESSES: '16' },
      3000,
    );
    expect(result.stderr).toMatch(/Cannot fork|Resource temporarily unavailable/);
    expect(result.stdout).not.toContain('started');
    const next = await run('echo fine');
    expect(next.stdout).toBe('fine\n');
  });
});

describe.skipIf(problem !== undefined)(
  `a fork bomb through the agent${skippedBecause(problem)}`,
  () => {
    let agent: AgentRun | undefined;
    afterEach(async () => {
      await agent?.cancel().catch(() => {});
      agent = undefined;
    });

    it('is stopped by the limits, and the agent keeps serving', async () => {
      const host = makeMailHost();
      const toolUrl = new URL('../tools/run-command.ts', import.meta.url).href;
      await E(host.host).makeUnconfined('worker-run', toolUrl, {
        resultName: 'run-command-tool',
        env: { FAE_CWD: root, FAE_SANDBOX_MAX_PROCESSES: '12' },
      });
      agent = await startAgent({
        host,
        persona: 'fae',
        introducedNames: { 'run-command-tool': 'run-command-tool' },
        steps: [
          // Not backgrounded: the shell waits on the bomb, so it runs until the limits stop it rather than
          // exiting (and taking the namespace down) before the process limit is reached on a slow machine.
          callTool('runCommand', { command: 'bomb() { bomb | bomb; }; bomb', timeoutMs: 2000 }),
          request => {
            const result = JSON.parse(request.messages.at(-1)!.content) as CommandResult;
            return say(
              `bomb: ${result.timedOut ? 'timed out' : result.status}, ${/Cannot fork/.test(result.stderr) ? 'forks refused' : 'no refusal'}`,
            );
          },
          say('still serving'),
        ],
      });
      await agent.send('run a fork bomb');
      await agent.reply(/^bomb: .*forks refused$/);
      await agent.send('are you there?');
      await agent.reply('still serving');
    });
  },
);

describe.skipIf(problem !== undefined)(
  `when the tool's worker ends${skippedBecause(problem)}`,
  () => {
    it('the sandboxed command dies with it', async () => {
      // A worker of its own (a child node process, locked down as the daemon's are) runs a long command, then is killed.
      const marker = `30.${process.pid}${Math.floor(Math.random() * 1e6)}`;
      const script = [
        "import '@endo/init';",
        "const { make } = await import('./dist/tools/run-command.js');",
        `const tool = make(undefined, undefined, { env: { FAE_CWD: ${JSON.stringify(root)} } });`,
        // The marker comes by env, so that the worker's own command line does not hold it.
        // eslint-disable-next-line no-template-curly-in-string -- the script's own template literal
        'await tool.execute(harden({ command: `sleep ${process.env.SLEEP_MARKER}` }));',
      ].join('\n');
      const worker = spawn(process.execPath, ['--input-type=module', '-e', script], {
        cwd: projectRoot,
        env: { ...process.env, SLEEP_MARKER: marker },
        stdio: 'ignore',
      });
      try {
        await expect.poll(() => runningWith(marker, 'sleep').length).toBe(1);
      } finally {
        worker.kill('SIGKILL');
      }
      // Nothing of it is left: not the sleeper, not its shell, not bubblewrap.
      await expect.poll(() => runningWith(marker).length).toBe(0);
    });
  },
);

describe('CI=true needs the sandbox', () => {
  it.runIf(process.env.CI === 'true')(
    'bubblewrap works on this machine (checked only with CI=true; skipped otherwise)',
    () => {
      expect(
        problem,
        'CI must run the sandbox tests: install bubblewrap (.ci/run does)',
      ).toBeUndefined();
    },
  );
});
