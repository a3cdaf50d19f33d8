/**
 * How the MCP bridge starts a local server (tools/lib/mcp/server-launch.ts),
 * judged alone: unconfined only when the host set MCP_UNSANDBOXED=1; else
 * inside bubblewrap, refused with the reason and the way out when there is no
 * working sandbox (asked once per bwrap), and shown, read-only, the files of
 * an absolute command or script outside its folder (docs/mcp.md). The
 * sandboxed launch is planned with the sandbox check and the worker's
 * cgroups as doubles (nothing is started), so it is judged on any machine,
 * one where no sandbox can be made (a root worker without a writable pids
 * cgroup) too; sandbox-plan's own tests run real sandboxes.
 */
import { chmodSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, test, vi } from 'vitest';
import { readMcpSettings } from '../tools/lib/mcp/mcp-settings.js';
import { prepareServerLaunch } from '../tools/lib/mcp/server-launch.js';
import { INSTALL_HINT, SANDBOX_HOME, SANDBOX_PATH } from '../tools/lib/sandbox/sandbox-plan.js';
import { makeTempDir } from './tools-helpers.js';

// The doubles answer only in 'a sandboxed server, planned' (`on`); elsewhere, and in a file that a run
// without isolation between files (Stryker's) hands these modules to, they are the real ones.
const double = vi.hoisted(() => ({ on: false, root: false, released: [] as string[] }));

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
            // `root`: a root worker that finds no pids cgroup when the server starts.
            uid: double.root ? 0 : 1000,
            makeCgroups: () => ({
              procsFiles: double.root ? [] : ['/sys/fs/cgroup/test/cgroup.procs'],
              pidsBounded: !double.root,
              memoryBounded: true,
              release: () => double.released.push(args[1]),
            }),
          })
        : real.planSandboxedRun(...args),
  };
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

const stdioSpec = (env: Record<string, string>) => {
  const { server } = readMcpSettings(env);
  if (server.kind !== 'stdio') throw Error('expected a local server');
  return server;
};

/** A PATH on which bubblewrap and prlimit are found (never run: the check is answered above). */
const withPrograms = () => {
  const bin = folder('mcp-plan-bin');
  for (const name of ['bwrap', 'prlimit']) writeFileSync(path.join(bin, name), '', { mode: 0o755 });
  vi.stubEnv('PATH', bin);
  return bin;
};

const OPT_OUT = 'or set MCP_UNSANDBOXED=1 to run the server unconfined';

/** A folder to put on PATH holding the given programs (links to the real ones, or scripts). */
const pathWith = (programs: Record<string, string>) => {
  const bin = folder('mcp-launch-bin');
  for (const [name, target] of Object.entries(programs)) {
    const at = path.join(bin, name);
    if (target.startsWith('#!')) {
      writeFileSync(at, target);
      chmodSync(at, 0o755);
    } else symlinkSync(target, at);
  }
  return bin;
};

/** The folders the server may read besides the system: the read-only binds after its private /tmp. */
const readOnlyBinds = (argv: readonly string[]) => {
  const view = argv.slice(argv.indexOf('--tmpfs') + 2, argv.indexOf('--bind'));
  return view.flatMap((arg, index) =>
    arg === '--ro-bind' && view[index + 1] === view[index + 2] ? [view[index + 1]!] : [],
  );
};

describe('an unconfined server (MCP_UNSANDBOXED=1)', () => {
  test('runs the command as given, in its folder, with the agent PATH, its folder as HOME, and MCP_ENV', async () => {
    const cwd = folder('mcp-launch-open');
    vi.stubEnv('PATH', '/opt/somewhere/bin:/usr/bin');
    const launch = await prepareServerLaunch(
      stdioSpec({
        MCP_COMMAND: 'my-server',
        MCP_ARGS: '["--port", "0"]',
        MCP_CWD: cwd,
        MCP_UNSANDBOXED: '1',
        MCP_ENV: 'REGION',
        REGION: 'eu',
      }),
    );
    expect(launch).toMatchObject({
      file: 'my-server',
      argv: ['--port', '0'],
      cwd,
      sandbox: 'none (MCP_UNSANDBOXED)',
    });
    expect(launch.env).toMatchObject({
      PATH: '/opt/somewhere/bin:/usr/bin',
      HOME: cwd,
      PWD: cwd,
      REGION: 'eu',
    });
    expect(() => launch.release()).not.toThrow();
  });

  test('without a PATH of its own, the sandbox PATH', async () => {
    const cwd = folder('mcp-launch-no-path');
    vi.stubEnv('PATH', undefined);
    const launch = await prepareServerLaunch(
      stdioSpec({ MCP_COMMAND: 'my-server', MCP_CWD: cwd, MCP_UNSANDBOXED: '1' }),
    );
    expect(launch.env.PATH).toBe(SANDBOX_PATH);
  });
});

describe('no working sandbox: refused, saying why and the way out', () => {
  const refusal = (why: string) => `mcp: no sandbox, so the server was not started: ${why}`;

  test('no bubblewrap on PATH', async () => {
    const cwd = folder('mcp-launch-no-bwrap');
    vi.stubEnv('PATH', pathWith({}));
    await expect(
      prepareServerLaunch(stdioSpec({ MCP_COMMAND: 'my-server', MCP_CWD: cwd })),
    ).rejects.toThrow(
      refusal(`bubblewrap (bwrap) was not found on PATH: ${INSTALL_HINT}, ${OPT_OUT}`),
    );
  });

  test('bubblewrap but no prlimit', async () => {
    const cwd = folder('mcp-launch-no-prlimit');
    vi.stubEnv('PATH', pathWith({ bwrap: '/usr/bin/bwrap' }));
    await expect(
      prepareServerLaunch(stdioSpec({ MCP_COMMAND: 'my-server', MCP_CWD: cwd })),
    ).rejects.toThrow(refusal(`prlimit (util-linux) was not found on PATH, ${OPT_OUT}`));
  });

  test('a bubblewrap that cannot make a sandbox: asked once, refused each time', async () => {
    const cwd = folder('mcp-launch-broken-bwrap');
    const calls = path.join(folder('mcp-launch-calls'), 'calls');
    writeFileSync(calls, '');
    const bin = pathWith({
      bwrap: `#!/bin/sh\necho run >> ${calls}\necho 'bwrap: No permissions to create a new namespace' >&2\nexit 1\n`,
      prlimit: '/usr/bin/prlimit',
      sh: '/bin/sh',
      echo: '/bin/echo',
    });
    vi.stubEnv('PATH', bin);
    const spec = stdioSpec({ MCP_COMMAND: 'my-server', MCP_CWD: cwd });
    const why = refusal(
      `bubblewrap is installed but cannot make a sandbox here (bwrap: No permissions to create a new namespace), ${OPT_OUT}`,
    );
    await expect(prepareServerLaunch(spec)).rejects.toThrow(why);
    await expect(prepareServerLaunch(spec)).rejects.toThrow(why);
    expect(readFileSync(calls, 'utf8')).toBe('run\n');
  });
});

describe('a sandboxed server, planned', () => {
  beforeAll(() => {
    double.on = true;
  });
  afterAll(() => {
    double.on = false;
  });

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
    // `package.json` is in the folder the bridge runs in, not the server's: a relative name is looked up on PATH.
    for (const command of ['/usr/bin/env', '/bin/sh', cwd, 'node', 'package.json'])
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

  test('a plan refused when the server starts is said, with the way out, and nothing is started', async () => {
    withPrograms();
    const cwd = folder('mcp-plan-refused');
    double.root = true;
    try {
      await expect(
        prepareServerLaunch(stdioSpec({ MCP_COMMAND: 'my-server', MCP_CWD: cwd })),
      ).rejects.toThrow(
        /^mcp: no sandbox, so the server was not started: running as root with no writable pids cgroup, .*; run the daemon as another user or give it a pids cgroup, or set MCP_UNSANDBOXED=1 to run the server unconfined$/,
      );
    } finally {
      double.root = false;
    }
  });
});
