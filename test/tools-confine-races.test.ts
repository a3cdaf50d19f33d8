// Making directories inside the root while something else works there too (tools/lib/confine.ts):
// a directory another process made between our look and our mkdir is used as it is; a mkdir the
// system refuses is described for the path the model gave. mkdir is wrapped to play the other
// process and the refusing system.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { existsSync, mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { makeTempDir } from './tools-helpers.js';

vi.mock('node:fs/promises', async importOriginal => {
  const real = await importOriginal<typeof import('node:fs/promises')>();
  const failure = (code: string) => Object.assign(new Error(`${code}: refused`), { code });
  return {
    ...real,
    mkdir: async (target: string, ...rest: []) => {
      const name = path.basename(String(target));
      if (name === 'raced') {
        // Another process makes it first.
        await real.mkdir(target, ...rest);
        throw failure('EEXIST');
      }
      if (name === 'denied') throw failure('EACCES');
      return real.mkdir(target, ...rest);
    },
  };
});

const { makeDirectoriesInside } = await import('../tools/lib/confine.js');

let root: string;

beforeEach(() => {
  root = path.join(makeTempDir('confine-races'), 'app');
  mkdirSync(root);
});

afterEach(() => {
  rmSync(path.dirname(root), { recursive: true, force: true });
});

describe('making directories inside the root, with company', () => {
  it('a directory made by someone else meanwhile is used, and the rest made inside it', async () => {
    await makeDirectoriesInside(root, path.join(root, 'raced', 'below'), 'raced/below');
    expect(existsSync(path.join(root, 'raced', 'below'))).toBe(true);
  });

  it('a mkdir the system refuses is described for the path the model gave', async () => {
    const error = await makeDirectoriesInside(root, path.join(root, 'denied'), 'denied').then(
      () => undefined,
      (failure: unknown) => failure as Error,
    );
    expect(error?.message).toBe('permission denied: "denied"');
    expect(error?.cause).toMatchObject({ code: 'EACCES' });
  });
});
