/**
 * The MCP bridge's settings and setup's plan of the bridge, at their edges
 * (tools/lib/mcp/mcp-settings.ts, setup/mcp-bridge-plan.ts, docs/mcp.md):
 * the bounds of each name and number, every separator and on/off word, the
 * sandbox's limits passed through, MCP_ARGS stored so a restart gives it
 * back, and exactly the MCP variables (and MCP_ENV's) passed to the caplet.
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { readMcpSettings, storableMcpArgs } from '../tools/lib/mcp/mcp-settings.js';
import { MCP_ENV_NAMES } from '../tools/lib/tool-settings.js';
import { planMcpBridge } from '../setup/mcp-bridge-plan.js';
import { makeTempDir } from './tools-helpers.js';

const local = { MCP_COMMAND: 'node', MCP_CWD: '/srv/mcp' };
const stdio = (env: Record<string, string>) => {
  const { server } = readMcpSettings({ ...local, ...env });
  if (server.kind !== 'stdio') throw Error('expected a local server');
  return server;
};

const folders: string[] = [];
afterAll(() => {
  for (const made of folders) rmSync(made, { recursive: true, force: true });
});

describe('the MCP settings at their edges', () => {
  test('MCP_NAME: 40 characters at most, starting with a letter or digit, read trimmed', () => {
    expect(readMcpSettings({ ...local, MCP_NAME: ` ${'a'.repeat(40)} ` }).name).toBe(
      'a'.repeat(40),
    );
    expect(readMcpSettings({ ...local, MCP_NAME: '9-lives' }).name).toBe('9-lives');
    for (const bad of ['a'.repeat(41), '-files', '', 'files_1'])
      expect(() => readMcpSettings({ ...local, MCP_NAME: bad })).toThrow(/MCP_NAME must be/);
  });

  test('MCP_TIMEOUT_MS: from 1 to 600000, whole, read trimmed', () => {
    expect(readMcpSettings({ ...local, MCP_TIMEOUT_MS: '1' }).timeoutMs).toBe(1);
    expect(readMcpSettings({ ...local, MCP_TIMEOUT_MS: '600000' }).timeoutMs).toBe(600_000);
    expect(readMcpSettings({ ...local, MCP_TIMEOUT_MS: ' ' }).timeoutMs).toBe(60_000);
    expect(() => readMcpSettings({ ...local, MCP_TIMEOUT_MS: '1.5' })).toThrow(/MCP_TIMEOUT_MS/);
  });

  test("MCP_ENV: names of up to 128 characters, split by commas or spaces; the sandbox's own are refused", () => {
    const long = `A${'b'.repeat(127)}`;
    expect(
      stdio({ MCP_ENV: `${long}\tZONE  REGION,`, [long]: 'x', ZONE: 'z', REGION: 'r' }).passEnv,
    ).toEqual({
      [long]: 'x',
      ZONE: 'z',
      REGION: 'r',
    });
    expect(stdio({ MCP_ENV: ' , ' }).passEnv).toEqual({});
    for (const name of [`${long}c`, 'HOME', 'PWD', 'MCP_AUTH_TOKEN_FILE', 'MCP_AUTH_TOKEN', '1ABC'])
      expect(() => stdio({ MCP_ENV: name })).toThrow(`${JSON.stringify(name)} cannot be one`);
  });

  test('MCP_READ_ONLY: split by commas or colons, trimmed, resolved; MCP_CWD trimmed and resolved', () => {
    const server = stdio({ MCP_READ_ONLY: ' /a/b/../c , /d:/e/ ', MCP_CWD: ' /srv/./mcp/ ' });
    expect(server.readOnly).toEqual(['/a/c', '/d', '/e']);
    expect(server.cwd).toBe('/srv/mcp');
    expect(stdio({}).readOnly).toEqual([]);
  });

  test('MCP_UNSANDBOXED and MCP_ALLOW_NETWORK take the on/off words, and reach the sandbox settings with its limits', () => {
    const server = stdio({
      MCP_UNSANDBOXED: 'yes',
      MCP_ALLOW_NETWORK: 'TRUE',
      FAE_SANDBOX_MAX_PROCESSES: '7',
      FAE_SANDBOX_MEMORY_MB: '64',
      FAE_SANDBOX_FILE_MB: '3',
      FAE_SANDBOX_CPU_SECONDS: '90',
    });
    expect(server.sandbox).toMatchObject({
      unsandboxed: true,
      allowNetwork: true,
      maxProcesses: 7,
      memoryBytes: 64 * 1024 * 1024,
      fileBytes: 3 * 1024 * 1024,
      cpuSeconds: 90,
    });
    // A server lives for hours: an hour of CPU by default.
    expect(stdio({ MCP_UNSANDBOXED: 'off', MCP_ALLOW_NETWORK: '0' }).sandbox).toMatchObject({
      unsandboxed: false,
      allowNetwork: false,
      cpuSeconds: 3600,
    });
  });

  test('an MCP_URL is kept as its normal form; MCP_AUTH_TOKEN_FILE trimmed; an empty MCP_AUTH_TOKEN is no token', () => {
    expect(
      readMcpSettings({
        MCP_URL: ' HTTP://Example.org:80/mcp ',
        MCP_AUTH_TOKEN_FILE: ' /run/token ',
        MCP_AUTH_TOKEN: '',
      }).server,
    ).toEqual({ kind: 'http', url: 'http://example.org/mcp', tokenFile: '/run/token' });
  });

  test("MCP_ARGS as the daemon's q() marks it, with spaces around, and a marked text that is no list", () => {
    expect(stdio({ MCP_ARGS: ' [["-y"]] ' }).args).toEqual(['-y']);
    expect(() => stdio({ MCP_ARGS: '[[not json]]' })).toThrow(/MCP_ARGS must be a JSON array/);
    expect(() => stdio({ MCP_ARGS: '["a"] ["b"]' })).toThrow(/MCP_ARGS must be a JSON array/);
  });

  test('a URL with a user alone or a password alone is refused too; a blank command or URL is none', () => {
    for (const url of ['https://me@example.org/mcp', 'https://:pw@example.org/mcp'])
      expect(() => readMcpSettings({ MCP_URL: url })).toThrow(
        /^mcp: MCP_URL must not carry a user or password; /,
      );
    expect(
      readMcpSettings({ MCP_COMMAND: '  ', MCP_URL: 'https://example.org/mcp' }).server.kind,
    ).toBe('http');
    expect(readMcpSettings({ ...local, MCP_URL: ' ' }).server.kind).toBe('stdio');
  });

  test('MCP_ENV passes only the variables that are set, and a bad sandbox limit names the bridge', () => {
    expect(Object.keys(stdio({ MCP_ENV: 'REGION, UNSET_ONE', REGION: 'eu' }).passEnv)).toEqual([
      'REGION',
    ]);
    expect(() => stdio({ FAE_SANDBOX_MEMORY_MB: 'lots' })).toThrow(
      /^mcp: FAE_SANDBOX_MEMORY_MB must be a whole number of at least 1, got "lots"$/,
    );
  });

  test('MCP_ARGS is stored after a space when it starts with "[", else as it is', () => {
    expect(storableMcpArgs(undefined)).toBeUndefined();
    expect(storableMcpArgs('--verbose')).toBe('--verbose');
    expect(storableMcpArgs('  ["a"] ')).toBe(' ["a"]');
  });
});

describe('the MCP settings the bridge reads (docs/mcp.md)', () => {
  test("reads MCP_ARGS stored after a space, and as the daemon's q() marks it after a restart", () => {
    const argsOf = (raw: string) => {
      const { server } = readMcpSettings({ ...local, MCP_ARGS: raw });
      return server.kind === 'stdio' ? server.args : undefined;
    };
    expect(argsOf(' ["-y", "x"]')).toEqual(['-y', 'x']);
    expect(argsOf('[["-y", "x"]]')).toEqual(['-y', 'x']);
    expect(argsOf('[[]]')).toEqual([]);
    expect(() => argsOf('[["-y", 2]]')).toThrow(/MCP_ARGS must be a JSON array of strings/);
    expect(() => argsOf('[[1], [2]]')).toThrow(/MCP_ARGS must be a JSON array of strings/);
  });

  test('refuses each bad value with an error naming the variable and what it got', () => {
    const refusals: [Record<string, string>, RegExp][] = [
      [
        { ...local, MCP_NAME: 'Files!' },
        /^mcp: MCP_NAME must be 1 to 40 lower-case .*, got "Files!"$/,
      ],
      [
        { ...local, MCP_TIMEOUT_MS: '0' },
        /^mcp: MCP_TIMEOUT_MS must be .* from 1 to 600000, got "0"$/,
      ],
      [{ ...local, MCP_TIMEOUT_MS: '600001' }, /MCP_TIMEOUT_MS .*, got "600001"$/],
      [{ ...local, MCP_TIMEOUT_MS: 'soon' }, /MCP_TIMEOUT_MS .*, got "soon"$/],
      [
        { ...local, MCP_URL: 'http://127.0.0.1:9/mcp' },
        /^mcp: set MCP_COMMAND .* or MCP_URL, not both$/,
      ],
      [{ MCP_URL: 'not a url' }, /^mcp: MCP_URL must be an http\(s\) URL, got "not a url"$/],
      [{ MCP_URL: 'ftp://example.org/mcp' }, /MCP_URL must be an http\(s\) URL, got "ftp:/],
      [
        { MCP_URL: 'https://me:pw@example.org/mcp' },
        /MCP_URL must not carry a user or password; .*MCP_AUTH_TOKEN_FILE$/,
      ],
      [
        { MCP_URL: 'https://example.org/mcp', MCP_AUTH_TOKEN_FILE: 'token.txt' },
        /MCP_AUTH_TOKEN_FILE must be an absolute path, got "token.txt"$/,
      ],
      [{}, /^mcp: set MCP_COMMAND \(and MCP_ARGS, MCP_CWD\) to start a local server, or MCP_URL$/],
      [{ MCP_COMMAND: 'node' }, /^mcp: MCP_CWD must be the absolute path .*, got ""$/],
      [{ MCP_COMMAND: 'node', MCP_CWD: 'srv' }, /MCP_CWD must be the absolute path .*, got "srv"$/],
      [
        { ...local, MCP_UNSANDBOXED: 'maybe' },
        /^mcp: MCP_UNSANDBOXED must be 1 or 0, got "maybe"$/,
      ],
      [{ ...local, MCP_ALLOW_NETWORK: '2' }, /^mcp: MCP_ALLOW_NETWORK must be 1 or 0, got "2"$/],
      [
        { ...local, MCP_ARGS: '--verbose' },
        /^mcp: MCP_ARGS must be a JSON array of strings, got "--verbose", not JSON$/,
      ],
      [
        { ...local, MCP_ENV: 'REGION, PATH' },
        /^mcp: MCP_ENV names variables .*; "PATH" cannot be one$/,
      ],
      [{ ...local, MCP_ENV: 'NOT-A-NAME' }, /MCP_ENV .*; "NOT-A-NAME" cannot be one$/],
      [
        { ...local, MCP_READ_ONLY: '/usr/share, data' },
        /^mcp: MCP_READ_ONLY lists absolute folders, .*; got "data"$/,
      ],
    ];
    for (const [env, refusal] of refusals) expect(() => readMcpSettings(env)).toThrow(refusal);
    // Nothing at all: the default name is kept, and what is missing is named.
    expect(() => readMcpSettings(undefined)).toThrow(/set MCP_COMMAND .* or MCP_URL$/);
  });

  test('reads good values: defaults where unset, paths resolved, only the MCP_ENV names that are set', () => {
    const read = readMcpSettings({
      ...local,
      MCP_CWD: '/srv/mcp/../mcp-data/',
      MCP_TIMEOUT_MS: ' 1500 ',
      MCP_ARGS: '  ',
      MCP_ENV: 'REGION, UNSET_ONE,ZONE',
      REGION: 'eu',
      ZONE: 'b',
      MCP_READ_ONLY: '/usr/share:/opt/data/',
      MCP_UNSANDBOXED: ' Off ',
    });
    expect(read).toMatchObject({
      name: 'server',
      timeoutMs: 1500,
      server: {
        kind: 'stdio',
        command: 'node',
        args: [],
        passEnv: { REGION: 'eu', ZONE: 'b' },
        cwd: '/srv/mcp-data',
        readOnly: ['/usr/share', '/opt/data'],
      },
    });
    expect(
      readMcpSettings({
        MCP_NAME: ' docs ',
        MCP_URL: 'https://example.org/mcp',
        MCP_AUTH_TOKEN_FILE: ' ',
      }),
    ).toEqual({
      name: 'docs',
      timeoutMs: 60_000,
      server: { kind: 'http', url: 'https://example.org/mcp', tokenFile: undefined },
    });
  });
});

describe("setup's plan of the bridge", () => {
  const folder = () => {
    const made = makeTempDir('mcp-plan');
    folders.push(made);
    return made;
  };

  test('none without MCP_NAME', () => {
    expect(planMcpBridge({ MCP_COMMAND: 'node' }, '/', 'spec')).toBeUndefined();
    expect(planMcpBridge({ MCP_NAME: '', MCP_COMMAND: 'node' }, '/', 'spec')).toBeUndefined();
  });

  test('mcp-<name>, passed exactly the MCP variables and those MCP_ENV names, paths made absolute where setup runs', () => {
    const where = folder();
    mkdirSync(path.join(where, 'data'));
    const every = Object.fromEntries(MCP_ENV_NAMES.map(name => [name, '']));
    const plan = planMcpBridge(
      {
        ...every,
        MCP_NAME: 'files',
        MCP_COMMAND: 'node',
        MCP_ARGS: '["server.js"]',
        MCP_CWD: 'data',
        MCP_ENV: 'REGION',
        MCP_READ_ONLY: '/usr/share',
        MCP_ALLOW_NETWORK: '1',
        MCP_UNSANDBOXED: '0',
        MCP_TIMEOUT_MS: '5000',
        FAE_SANDBOX_MAX_PROCESSES: '9',
        FAE_SANDBOX_MEMORY_MB: '128',
        FAE_SANDBOX_CPU_SECONDS: '60',
        FAE_SANDBOX_FILE_MB: '8',
        REGION: 'eu',
        OTHER: 'not passed',
        LAL_AUTH_TOKEN: 'not passed either',
      },
      where,
      'file:///x/mcp.js',
    );
    expect(plan).toEqual({
      petName: 'mcp-files',
      specifier: 'file:///x/mcp.js',
      env: {
        MCP_NAME: 'files',
        MCP_COMMAND: 'node',
        MCP_ARGS: ' ["server.js"]',
        MCP_CWD: path.join(where, 'data'),
        MCP_ENV: 'REGION',
        MCP_READ_ONLY: '/usr/share',
        MCP_ALLOW_NETWORK: '1',
        MCP_UNSANDBOXED: '0',
        MCP_TIMEOUT_MS: '5000',
        FAE_SANDBOX_MAX_PROCESSES: '9',
        FAE_SANDBOX_MEMORY_MB: '128',
        FAE_SANDBOX_CPU_SECONDS: '60',
        FAE_SANDBOX_FILE_MB: '8',
        REGION: 'eu',
      },
    });
    const remote = planMcpBridge(
      { MCP_NAME: 'docs', MCP_URL: 'https://example.org/mcp', MCP_AUTH_TOKEN_FILE: 'token' },
      where,
      'spec',
    );
    // Strictly: the daemon's guard refuses an env holding `undefined` (no MCP_ARGS here).
    expect(remote?.env).toStrictEqual({
      MCP_NAME: 'docs',
      MCP_URL: 'https://example.org/mcp',
      MCP_AUTH_TOKEN_FILE: path.join(where, 'token'),
    });
  });

  test('MCP_CWD and MCP_AUTH_TOKEN_FILE are read trimmed; blank, they are none (never the folder setup runs in)', () => {
    const where = folder();
    mkdirSync(path.join(where, 'data'));
    const spaced = planMcpBridge(
      { MCP_NAME: 'files', MCP_COMMAND: 'node', MCP_CWD: ' data ' },
      where,
      'spec',
    );
    expect(spaced?.env.MCP_CWD).toBe(path.join(where, 'data'));
    // A local server needs its folder: a blank one is refused, not taken for where setup runs.
    expect(() =>
      planMcpBridge({ MCP_NAME: 'files', MCP_COMMAND: 'node', MCP_CWD: '  ' }, where, 'spec'),
    ).toThrow('MCP_CWD must be the absolute path of the folder the server may write in, got ""');
    const url = { MCP_NAME: 'docs', MCP_URL: 'https://example.org/mcp' };
    expect(planMcpBridge({ ...url, MCP_AUTH_TOKEN_FILE: ' token ' }, where, 'spec')?.env).toEqual({
      ...url,
      MCP_AUTH_TOKEN_FILE: path.join(where, 'token'),
    });
    expect(planMcpBridge({ ...url, MCP_AUTH_TOKEN_FILE: ' ' }, where, 'spec')?.env).toStrictEqual(
      url,
    );
  });

  test('an MCP_CWD that is not a directory, or a bad setting, is refused before anything is made', () => {
    const where = folder();
    writeFileSync(path.join(where, 'a-file'), '');
    expect(() =>
      planMcpBridge({ MCP_NAME: 'files', MCP_COMMAND: 'node', MCP_CWD: 'a-file' }, where, 'spec'),
    ).toThrow(`MCP_CWD is not a directory: ${JSON.stringify(path.join(where, 'a-file'))}`);
    expect(() =>
      planMcpBridge({ MCP_NAME: 'files', MCP_COMMAND: 'node', MCP_CWD: 'missing' }, where, 'spec'),
    ).toThrow('MCP_CWD is not a directory');
    expect(() =>
      planMcpBridge(
        { MCP_NAME: 'docs', MCP_URL: 'https://example.org/mcp', MCP_AUTH_TOKEN: 'secret-1' },
        where,
        'spec',
      ),
    ).toThrow(/MCP_AUTH_TOKEN is not read/);
  });
});
