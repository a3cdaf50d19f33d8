/**
 * How the MCP bridge starts a local server (tools/lib/mcp/server-launch.ts),
 * judged alone: unconfined only when the host set MCP_UNSANDBOXED=1; else
 * inside bubblewrap, refused with the reason and the way out when there is no
 * working sandbox (asked once per bwrap), and shown, read-only, the files of
 * an absolute command or script outside its folder (docs/mcp.md).
 */
import { chmodSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, test, vi } from 'vitest';
import { readMcpSettings } from '../tools/lib/mcp/mcp-settings.js';
import { prepareServerLaunch } from '../tools/lib/mcp/server-launch.js';
import { INSTALL_HINT, SANDBOX_HOME, SANDBOX_PATH } from '../tools/lib/sandbox/sandbox-plan.js';
import { makeTempDir } from './tools-helpers.js';

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

/** The folders the plan binds read-only (`--ro-bind from to`, each at its own path). */
const readOnlyBinds = (argv: readonly string[]) =>
  argv.flatMap((arg, index) =>
    arg === '--ro-bind' && argv[index + 1] === argv[index + 2] ? [argv[index + 1]!] : [],
  );

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

describe('a sandboxed server', () => {
  test('runs its command inside bubblewrap, with the sandbox PATH and HOME, its folder and MCP_ENV', async () => {
    const cwd = folder('mcp-launch-sandboxed');
    const launch = await prepareServerLaunch(
      stdioSpec({
        MCP_COMMAND: 'my-server',
        MCP_ARGS: '["--stdio"]',
        MCP_CWD: cwd,
        MCP_ENV: 'REGION',
        REGION: 'eu',
      }),
    );
    try {
      expect(launch.sandbox).toBe('bubblewrap');
      expect(launch.argv).toContain('--unshare-all');
      expect(launch.argv.slice(-3)).toEqual(['--', 'my-server', '--stdio']);
      expect(launch.cwd).toBe(cwd);
      expect(launch.env).toMatchObject({
        PATH: SANDBOX_PATH,
        HOME: SANDBOX_HOME,
        PWD: cwd,
        REGION: 'eu',
      });
    } finally {
      launch.release();
    }
  });

  test('sees MCP_READ_ONLY and the package trees of an absolute command and scripts outside its folder, read-only', async () => {
    const cwd = folder('mcp-launch-view');
    const elsewhere = folder('mcp-launch-packages');
    const file = (relative: string) => {
      const at = path.join(elsewhere, relative);
      mkdirSync(path.dirname(at), { recursive: true });
      writeFileSync(at, '');
      return at;
    };
    const command = file('app/node_modules/server/node_modules/dep/bin/cli.js');
    const script = file('lone/index.mjs');
    const commonJs = file('other/node_modules/pkg/main.cjs');
    const notScript = file('data/notes.txt');
    const inside = path.join(cwd, 'local.js');
    writeFileSync(inside, '');
    const launch = await prepareServerLaunch(
      stdioSpec({
        MCP_COMMAND: command,
        MCP_ARGS: JSON.stringify([
          script,
          commonJs,
          notScript,
          inside,
          'relative.js',
          path.join(elsewhere, 'missing/gone.js'),
          '/usr/share/some.js',
        ]),
        MCP_CWD: cwd,
        MCP_READ_ONLY: '/var/lib/extra',
      }),
    );
    try {
      // Sorted; the outermost node_modules of a package; nothing in its folder or the system's.
      expect(readOnlyBinds(launch.argv).filter(place => place !== '/usr')).toEqual([
        path.join(elsewhere, 'app/node_modules'),
        path.join(elsewhere, 'lone'),
        path.join(elsewhere, 'other/node_modules'),
        '/var/lib/extra',
      ]);
    } finally {
      launch.release();
    }
  });

  test('a command that is its folder itself is not bound again', async () => {
    const cwd = folder('mcp-launch-self.js');
    const launch = await prepareServerLaunch(
      stdioSpec({ MCP_COMMAND: 'node', MCP_ARGS: JSON.stringify([cwd]), MCP_CWD: cwd }),
    );
    try {
      expect(readOnlyBinds(launch.argv).filter(place => place !== '/usr')).toEqual([]);
    } finally {
      launch.release();
    }
  });
});
