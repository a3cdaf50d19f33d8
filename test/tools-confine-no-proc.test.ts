// Confinement where the kernel offers no /proc/self/fd (tools/lib/confine.ts): a Linux without
// /proc mounted, or another system. Nothing can be opened relative to a held directory there, so
// directories are made and then checked, a file is opened by its checked path, and a
// descriptor's place cannot be read back; the refusals still hold.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  existsSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  renameSync,
  rmSync,
  symlinkSync,
} from 'node:fs';
import path from 'node:path';
import { makeTempDir } from './tools-helpers.js';

// The fs the module sees: /proc/self/fd answers as if /proc were not mounted.
vi.mock('node:fs/promises', async importOriginal => {
  const real = await importOriginal<typeof import('node:fs/promises')>();
  const noProc = (target: unknown) => {
    if (String(target).startsWith('/proc/')) {
      throw Object.assign(new Error(`ENOENT: no such file or directory, '${String(target)}'`), {
        code: 'ENOENT',
      });
    }
  };
  return {
    ...real,
    lstat: async (target: string, ...rest: []) => {
      noProc(target);
      return real.lstat(target, ...rest);
    },
    readlink: async (target: string, ...rest: []) => {
      noProc(target);
      return real.readlink(target, ...rest);
    },
    open: async (target: string, ...rest: [number, number]) => {
      noProc(target);
      return real.open(target, ...rest);
    },
  };
});

const { assertOpenedInside, makeDirectoriesInside, openInside, resolveInside } =
  await import('../tools/lib/confine.js');
const { open } = await import('node:fs/promises');

let base: string;
let root: string;
let outside: string;

beforeEach(() => {
  base = makeTempDir('confine-no-proc');
  root = path.join(base, 'app');
  outside = path.join(base, 'outside');
  mkdirSync(root);
  mkdirSync(outside);
});

afterEach(() => {
  rmSync(base, { recursive: true, force: true });
});

describe('without /proc/self/fd', () => {
  it('makes missing directories inside the root and writes the file', async () => {
    const target = await resolveInside(root, 'x/y/new.txt', { forCreate: true });
    await makeDirectoriesInside(root, path.dirname(target), 'x/y/new.txt');
    const handle = await openInside(root, 'x/y/new.txt', 'write', target);
    await handle.writeFile('made');
    await handle.close();
    expect(readFileSync(path.join(root, 'x', 'y', 'new.txt'), 'utf8')).toBe('made');
  });

  it('directories that end up outside (a parent swapped for a symlink) are refused', async () => {
    mkdirSync(path.join(root, 'a'));
    const target = await resolveInside(root, 'a/b/c', { forCreate: true });
    renameSync(path.join(root, 'a'), path.join(root, 'a-moved'));
    symlinkSync(outside, path.join(root, 'a'));
    await expect(makeDirectoriesInside(root, target, 'a/b/c')).rejects.toThrow(
      'path escapes the tool root: "a/b/c" (its directory moved outside)',
    );
  });

  it('an fs failure while making them is described for the path the model gave', async () => {
    const file = path.join(root, 'file');
    await (await open(file, 'w')).close();
    const error = await makeDirectoriesInside(root, path.join(file, 'sub'), 'file/sub').then(
      () => undefined,
      (failure: unknown) => failure as Error,
    );
    expect(error?.message).toBe('a component of the path is not a directory: "file/sub"');
    expect(error?.cause).toMatchObject({ code: 'ENOTDIR' });
  });

  it('a descriptor cannot be read back, so it is taken as opened where it was checked', async () => {
    const handle = await open(outside, 'r');
    try {
      await expect(assertOpenedInside(root, handle.fd, 'x')).resolves.toBeUndefined();
    } finally {
      await handle.close();
    }
    expect(readdirSync(outside)).toEqual([]);
    expect(existsSync(path.join(root, 'x'))).toBe(false);
  });
});
