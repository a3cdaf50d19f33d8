// What bubblewrap is told, argument by argument (tools/lib/sandbox/sandbox-plan.ts): every
// namespace unshared (the network only shared when allowed), no capabilities, the system
// read-only as this machine has it, only the /etc entries programs need (name resolution and
// certificates only with the network), a private /proc, /dev and /tmp, and the tool root bound
// writable at /work. Also: the refusals when a program is missing, word for word, and
// RLIMIT_NPROC counting the processes the worker's user runs now.
import { describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { chmodSync, lstatSync, readlinkSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { CommandCgroups } from '../tools/lib/sandbox/command-cgroups.js';
import {
  bubblewrapArgs,
  findSandboxPrograms,
  planSandboxedRun,
  SANDBOX_HOME,
  SANDBOX_PATH,
  SANDBOX_ROOT,
} from '../tools/lib/sandbox/sandbox-plan.js';
import { readSandboxSettings } from '../tools/lib/sandbox/sandbox-settings.js';
import { makeTempDir } from './tools-helpers.js';

const settings = readSandboxSettings({}, 'test');
const networked = readSandboxSettings({ FAE_SANDBOX_ALLOW_NETWORK: '1' }, 'test');

/** The system folders as this machine has them: a symlink is re-made, a folder bound read-only. */
const systemOfThisMachine = (): string[] => {
  const args = ['--ro-bind', '/usr', '/usr'];
  for (const name of ['bin', 'sbin', 'lib', 'lib32', 'lib64', 'libx32']) {
    const where = `/${name}`;
    let link: boolean;
    try {
      link = lstatSync(where).isSymbolicLink();
    } catch {
      continue;
    }
    if (link) args.push('--symlink', readlinkSync(where), where);
    else if (statSync(where).isDirectory()) args.push('--ro-bind', where, where);
  }
  return args;
};

const etc = (names: string[]) =>
  names.flatMap(name => ['--ro-bind-try', `/etc/${name}`, `/etc/${name}`]);
const ETC = [
  'ld.so.cache',
  'ld.so.conf',
  'ld.so.conf.d',
  'alternatives',
  'passwd',
  'group',
  'nsswitch.conf',
  'localtime',
  'timezone',
  'mime.types',
];
const ETC_NETWORK = [
  'resolv.conf',
  'hosts',
  'host.conf',
  'gai.conf',
  'ssl',
  'ca-certificates',
  'ca-certificates.conf',
];
const PRIVATE_AND_ROOT = (root: string) => [
  '--proc',
  '/proc',
  '--dev',
  '/dev',
  '--tmpfs',
  '/tmp',
  '--bind',
  root,
  '/work',
  '--chdir',
  '/work',
  '--hostname',
  'sandbox',
];

describe('bubblewrap arguments', () => {
  it('without the network: all unshared, no capabilities, the system read-only, the /etc programs need, the root at /work', () => {
    expect(bubblewrapArgs('/srv/app', settings)).toEqual([
      '--unshare-all',
      '--die-with-parent',
      '--new-session',
      '--cap-drop',
      'ALL',
      ...systemOfThisMachine(),
      ...etc(ETC),
      ...PRIVATE_AND_ROOT('/srv/app'),
    ]);
  });

  it('with FAE_SANDBOX_ALLOW_NETWORK: the network shared, and name resolution and certificates visible', () => {
    expect(bubblewrapArgs('/srv/app', networked)).toEqual([
      '--unshare-all',
      '--share-net',
      '--die-with-parent',
      '--new-session',
      '--cap-drop',
      'ALL',
      ...systemOfThisMachine(),
      ...etc([...ETC, ...ETC_NETWORK]),
      ...PRIVATE_AND_ROOT('/srv/app'),
    ]);
  });

  it('the names the command sees: the root at /work, HOME in the private /tmp, the standard PATH', () => {
    expect([SANDBOX_ROOT, SANDBOX_HOME, SANDBOX_PATH]).toEqual([
      '/work',
      '/tmp',
      '/usr/local/bin:/usr/bin:/bin:/usr/local/sbin:/usr/sbin:/sbin',
    ]);
  });
});

describe('the programs the sandbox needs', () => {
  const binWith = (programs: string[]) => {
    const bin = makeTempDir('sandbox-bin');
    for (const name of programs) {
      writeFileSync(path.join(bin, name), '#!/bin/sh\nexit 0\n');
      chmodSync(path.join(bin, name), 0o755);
    }
    return bin;
  };

  it('says which is missing and how to install it, or how to opt out', () => {
    const none = binWith([]);
    const bwrapOnly = binWith(['bwrap']);
    const both = binWith(['bwrap', 'prlimit']);
    try {
      expect(findSandboxPrograms(none)).toBe(
        'bubblewrap (bwrap) was not found on PATH: install bubblewrap (Debian/Ubuntu: apt-get install bubblewrap; Fedora: dnf install bubblewrap), or set FAE_RUN_COMMAND_UNSANDBOXED=1 on run-command-tool to run commands unconfined',
      );
      expect(findSandboxPrograms(bwrapOnly)).toBe(
        'prlimit (util-linux) was not found on PATH: install util-linux, or set FAE_RUN_COMMAND_UNSANDBOXED=1 on run-command-tool to run commands unconfined',
      );
      expect(findSandboxPrograms(both)).toEqual({
        bwrap: path.join(both, 'bwrap'),
        prlimit: path.join(both, 'prlimit'),
      });
    } finally {
      for (const bin of [none, bwrapOnly, both]) rmSync(bin, { recursive: true, force: true });
    }
  });
});

/** Cgroups that bound nothing: the plan falls back on RLIMIT_NPROC. */
const noCgroups = (): CommandCgroups => ({
  procsFiles: [],
  pidsBounded: false,
  memoryBounded: false,
  release: () => {},
});

describe.runIf(process.platform === 'linux' && process.getuid?.() === 0)(
  "RLIMIT_NPROC counts the user's running processes (runs only on Linux as root: it runs processes as another uid)",
  () => {
    it('a user running two processes gets two more than the allowance', async () => {
      const uid = 4343;
      const cwd = makeTempDir('nproc');
      const children = [0, 1].map(() =>
        spawn('/bin/sleep', ['30'], { uid, gid: uid, cwd, stdio: 'ignore' }),
      );
      try {
        await Promise.all(
          children.map(child => new Promise(resolve => child.once('spawn', resolve))),
        );
        const made = planSandboxedRun(
          { bwrap: '/usr/bin/bwrap', prlimit: '/usr/bin/prlimit' },
          cwd,
          settings,
          { file: '/bin/true', argv: [] },
          { uid, makeCgroups: noCgroups },
        );
        expect(typeof made).toBe('object');
        const { argv } = made as { argv: string[] };
        expect(argv).toContain(`--nproc=${settings.maxProcesses + 2}`);
      } finally {
        for (const child of children) child.kill('SIGKILL');
        rmSync(cwd, { recursive: true, force: true });
      }
    });
  },
);
