/**
 * The sandboxed launch of a local MCP server (tools/lib/mcp/server-launch.ts)
 * on any machine: the sandbox check answers that bubblewrap works and the
 * plan is made for a worker with a pids cgroup, so the launch is planned
 * (nothing is started) where a real sandbox cannot be made, as on a root
 * worker without a writable pids cgroup. What the server may read, its env
 * and its place are judged from the plan; mcp-server-launch.test.ts runs the
 * same where a sandbox can be made, and the refusals.
 */
import { mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, test, vi } from 'vitest';
import { readMcpSettings } from '../tools/lib/mcp/mcp-settings.js';
import { prepareServerLaunch } from '../tools/lib/mcp/server-launch.js';
import { SANDBOX_HOME, SANDBOX_PATH } from '../tools/lib/sandbox/sandbox-plan.js';
import { makeTempDir } from './tools-helpers.js';

// The doubles answer only while this file runs: a run that does not isolate files from each other
// (Stryker's) may hand the mocked modules to the next file, which then gets the real answers.
const double = vi.hoisted(() => ({ on: false, released: [] as string[] }));

vi.mock('../tools/lib/sandbox/sandbox-check.js', async importOriginal => {
  const real = await importOriginal<typeof import('../tools/lib/sandbox/sandbox-check.js')>();
  return {
    ...real,
    checkSandbox: (...args: Parameters<typeof real.checkSandbox>) =>
      double.on ? Promise.resolve(undefined) : real.checkSandbox(...args),
  };
});
vi.mock('../tools/lib/sandbox/sandbox-plan.js', async importOriginal => {
  const real = await importOriginal<typeof import('../tools/lib/sandbox/sandbox-plan.js')>();
  return {
    ...real,
    // A worker in a pids cgroup of its own: the plan is made, whoever runs the test.
    planSandboxedRun: (...args: Parameters<typeof real.planSandboxedRun>) =>
      double.on
        ? real.planSandboxedRun(args[0], args[1], args[2], args[3], {
            uid: 1000,
            makeCgroups: () => ({
              procsFiles: ['/sys/fs/cgroup/test/cgroup.procs'],
              pidsBounded: true,
              memoryBounded: true,
              release: () => double.released.push(args[1]),
            }),
          })
        : real.planSandboxedRun(...args),
  };
});
beforeAll(() => {
  double.on = true;
});
afterAll(() => {
  double.on = false;
});

const folders: string[] = [];
const folder = (name: string) => {
  const made = makeTempDir(name);
  folders.push(made);
  return made;
};
afterEach(() => {
  vi.unstubAllEnvs();
});
afterAll(() => {
  for (const made of folders) rmSync(made, { recursive: true, force: true });
});

/** A PATH on which bubblewrap and prlimit are found (never run: the check is answered above). */
const withPrograms = () => {
  const bin = folder('mcp-plan-bin');
  for (const name of ['bwrap', 'prlimit']) writeFileSync(path.join(bin, name), '', { mode: 0o755 });
  vi.stubEnv('PATH', bin);
  return bin;
};

const stdioSpec = (env: Record<string, string>) => {
  const { server } = readMcpSettings(env);
  if (server.kind !== 'stdio') throw Error('expected a local server');
  return server;
};

/** The folders the server may read besides the system: the read-only binds after its private /tmp. */
const readOnlyBinds = (argv: readonly string[]) => {
  const view = argv.slice(argv.indexOf('--tmpfs') + 2, argv.indexOf('--bind'));
  return view.flatMap((arg, index) =>
    arg === '--ro-bind' && view[index + 1] === view[index + 2] ? [view[index + 1]!] : [],
  );
};

describe('a sandboxed server, planned', () => {
  test('runs its command inside bubblewrap, its folder writable at its own path, with the sandbox PATH and HOME and MCP_ENV', async () => {
    const bin = withPrograms();
    const cwd = folder('mcp-plan-run');
    const launch = await prepareServerLaunch(
      stdioSpec({
        MCP_COMMAND: 'my-server',
        MCP_ARGS: '["--stdio"]',
        MCP_CWD: cwd,
        MCP_ENV: 'REGION',
        REGION: 'eu',
      }),
    );
    expect(launch.sandbox).toBe('bubblewrap');
    expect(launch.file).toBe('/bin/sh');
    expect(launch.argv).toContain(path.join(bin, 'bwrap'));
    expect(launch.argv).toContain(path.join(bin, 'prlimit'));
    expect(launch.argv.slice(-3)).toEqual(['--', 'my-server', '--stdio']);
    const bind = launch.argv.indexOf('--bind');
    expect(launch.argv.slice(bind, bind + 3)).toEqual(['--bind', cwd, cwd]);
    expect(launch.cwd).toBe(cwd);
    expect(launch.env).toMatchObject({
      PATH: SANDBOX_PATH,
      HOME: SANDBOX_HOME,
      PWD: cwd,
      REGION: 'eu',
    });
    expect(double.released).not.toContain(cwd);
    launch.release();
    expect(double.released).toContain(cwd);
  });

  test('sees MCP_READ_ONLY and the package trees of an absolute command and scripts outside its folder, read-only, sorted', async () => {
    withPrograms();
    const cwd = folder('mcp-plan-view');
    const elsewhere = folder('mcp-plan-packages');
    const file = (relative: string) => {
      const at = path.join(elsewhere, relative);
      mkdirSync(path.dirname(at), { recursive: true });
      writeFileSync(at, '');
      return at;
    };
    const command = file('app/node_modules/server/node_modules/dep/bin/cli.js');
    const script = file('lone/index.mjs');
    const commonJs = file('other/node_modules/pkg/main.cjs');
    const plainJs = file('plain/main.js');
    const notScript = file('data/notes.txt');
    const almost = file('almost/main.jsx');
    const inside = path.join(cwd, 'deeper', 'local.js');
    mkdirSync(path.dirname(inside));
    writeFileSync(inside, '');
    // A link into the server's folder is its folder, wherever the link is.
    const linked = path.join(elsewhere, 'link-in.js');
    symlinkSync(inside, linked);
    const launch = await prepareServerLaunch(
      stdioSpec({
        MCP_COMMAND: command,
        MCP_ARGS: JSON.stringify([
          script,
          commonJs,
          plainJs,
          notScript,
          almost,
          inside,
          linked,
          'relative.js',
          path.join(elsewhere, 'missing/gone.js'),
          '/usr/share/some.js',
        ]),
        MCP_CWD: cwd,
        MCP_READ_ONLY: '/var/lib/extra',
      }),
    );
    expect(readOnlyBinds(launch.argv)).toEqual([
      path.join(elsewhere, 'app/node_modules'),
      path.join(elsewhere, 'lone'),
      path.join(elsewhere, 'other/node_modules'),
      path.join(elsewhere, 'plain'),
      '/var/lib/extra',
    ]);
  });

  test('a command in a system folder, or the folder itself, or a relative one, is not bound again', async () => {
    withPrograms();
    const cwd = folder('mcp-plan-self.js');
    for (const command of ['/usr/bin/env', '/bin/sh', cwd, 'node'])
      expect(
        readOnlyBinds(
          (
            await prepareServerLaunch(
              stdioSpec({ MCP_COMMAND: command, MCP_ARGS: JSON.stringify([cwd]), MCP_CWD: cwd }),
            )
          ).argv,
        ),
      ).toEqual([]);
  });

  test('a folder beside the server’s whose name begins with it is not its folder', async () => {
    withPrograms();
    const cwd = folder('mcp-plan-near');
    const beside = `${cwd}-other`;
    mkdirSync(beside);
    folders.push(beside);
    writeFileSync(path.join(beside, 'main.js'), '');
    const launch = await prepareServerLaunch(
      stdioSpec({
        MCP_COMMAND: 'node',
        MCP_ARGS: JSON.stringify([path.join(beside, 'main.js')]),
        MCP_CWD: cwd,
      }),
    );
    expect(readOnlyBinds(launch.argv)).toEqual([beside]);
  });
});
