// Confinement's edges, one by one (tools/lib/confine.ts): how FAE_CWD is read, which fs failure
// gives which refusal (and keeps its cause), a root removed under the tools, a descriptor of a
// deleted root, directories made only inside, a path that became a symlink or vanished between
// the check and the open, and no descriptor left open. `npm run mutation -- confine` judges these.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  existsSync,
  mkdirSync,
  readdirSync,
  renameSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { open } from 'node:fs/promises';
import path from 'node:path';
import {
  assertOpenedInside,
  makeDirectoriesInside,
  openInside,
  resolveInside,
  toolRootFromEnv,
} from '../tools/lib/confine.js';
import { makeTempDir } from './tools-helpers.js';

let base: string;
let root: string;
let outside: string;

beforeEach(() => {
  base = makeTempDir('confine-edges');
  root = path.join(base, 'app');
  outside = path.join(base, 'outside');
  mkdirSync(path.join(root, 'inner'), { recursive: true });
  mkdirSync(outside);
  writeFileSync(path.join(root, 'inner', 'real.txt'), 'inner\n');
});

afterEach(() => {
  rmSync(base, { recursive: true, force: true });
});

/** What a promise rejected with. */
const failureOf = async (work: Promise<unknown>): Promise<Error> => {
  try {
    await work;
  } catch (error) {
    expect(error).toBeInstanceOf(Error);
    return error as Error;
  }
  throw new Error('expected a rejection');
};

describe('toolRootFromEnv', () => {
  it('is the real path of FAE_CWD', () => {
    symlinkSync(root, path.join(base, 'via-link'));
    expect(toolRootFromEnv({ FAE_CWD: path.join(base, 'via-link') }, 'readFile')).toBe(root);
  });

  it('refuses FAE_CWD unset, empty, relative, missing or a file, naming the tool and the value', () => {
    const file = path.join(root, 'inner', 'real.txt');
    const missing = path.join(base, 'nowhere');
    const cases: [Record<string, string> | undefined, string][] = [
      [
        undefined,
        'readFile: FAE_CWD is not set; the file tools need it to name their root directory',
      ],
      [{}, 'readFile: FAE_CWD is not set; the file tools need it to name their root directory'],
      [
        { FAE_CWD: '' },
        'readFile: FAE_CWD is not set; the file tools need it to name their root directory',
      ],
      [{ FAE_CWD: 'app' }, 'readFile: FAE_CWD must be an absolute path, got "app"'],
      [{ FAE_CWD: missing }, `readFile: FAE_CWD does not exist: ${JSON.stringify(missing)}`],
      [{ FAE_CWD: file }, `readFile: FAE_CWD is not a directory: ${JSON.stringify(file)}`],
    ];
    for (const [env, message] of cases) {
      expect(() => toolRootFromEnv(env, 'readFile')).toThrow(message);
    }
  });
});

describe('resolveInside failures', () => {
  it('names what a non-string path is', async () => {
    expect((await failureOf(resolveInside(root, null))).message).toBe(
      'path must be a string, got null',
    );
    expect((await failureOf(resolveInside(root, 7))).message).toBe(
      'path must be a string, got number',
    );
    expect((await failureOf(resolveInside(root, undefined))).message).toBe(
      'path must be a string, got undefined',
    );
  });

  it('an escape refused before any fs call carries no cause', async () => {
    const error = await failureOf(resolveInside(root, '../outside'));
    expect(error.message).toMatch(/^path escapes the tool root: "\.\.\/outside" \(it climbs out/);
    expect(Object.hasOwn(error, 'cause')).toBe(false);
  });

  it('a name too long is refused as such, even for creation (it is not a missing file)', async () => {
    const long = 'x'.repeat(300);
    for (const forCreate of [false, true]) {
      const error = await failureOf(resolveInside(root, `inner/${long}`, { forCreate }));
      expect(error.message).toBe(`file operation failed (ENAMETOOLONG): "inner/${long}"`);
      expect(error.cause).toMatchObject({ code: 'ENAMETOOLONG' });
    }
  });

  it('a component that is a file is refused as not a directory, keeping the cause', async () => {
    const error = await failureOf(resolveInside(root, 'inner/real.txt/child'));
    expect(error.message).toBe(
      'a component of the path is not a directory: "inner/real.txt/child"',
    );
    expect(error.cause).toMatchObject({ code: 'ENOTDIR' });
  });

  it('a dangling symlink is refused, keeping the cause, even for creation', async () => {
    symlinkSync(path.join(root, 'inner', 'gone.txt'), path.join(root, 'dangling'));
    for (const forCreate of [false, true]) {
      const error = await failureOf(resolveInside(root, 'dangling', { forCreate }));
      expect(error.message).toBe('path goes through a dangling symlink: "dangling"');
      expect(error.cause).toMatchObject({ code: 'ENOENT' });
    }
  });

  it('a root removed under the tools: creation is refused, nothing is made above it', async () => {
    rmSync(root, { recursive: true });
    const error = await failureOf(resolveInside(root, 'new/file.txt', { forCreate: true }));
    expect(error.message).toBe('the tool root no longer exists');
    expect(error.cause).toMatchObject({ code: 'ENOENT' });
    expect(readdirSync(base)).toEqual(['outside']);
  });
});

describe.runIf(process.platform === 'linux')('descriptors (runs only on Linux: /proc)', () => {
  it('the root itself, opened and then deleted, is still the root', async () => {
    const empty = path.join(root, 'inner', 'empty');
    mkdirSync(empty);
    const handle = await open(empty, 'r');
    try {
      rmSync(empty, { recursive: true });
      await expect(assertOpenedInside(empty, handle.fd, '.')).resolves.toBeUndefined();
    } finally {
      await handle.close();
    }
  });

  it('a file that became a symlink between the check and the open is refused, keeping the cause', async () => {
    const checked = await resolveInside(root, 'inner/real.txt');
    rmSync(checked);
    symlinkSync(path.join(outside), checked);
    for (const purpose of ['read', 'update'] as const) {
      const error = await failureOf(openInside(root, 'inner/real.txt', purpose, checked));
      expect(error.message).toBe(
        'path escapes the tool root: "inner/real.txt" (it became a symlink while opening)',
      );
      expect(error.cause).toMatchObject({ code: 'ELOOP' });
    }
  });

  it('a directory on the way that became a symlink is refused as such, keeping the cause', async () => {
    mkdirSync(path.join(root, 'a'));
    const checked = await resolveInside(root, 'a/new.txt', { forCreate: true });
    renameSync(path.join(root, 'a'), path.join(root, 'a-moved'));
    symlinkSync(outside, path.join(root, 'a'));
    const error = await failureOf(openInside(root, 'a/new.txt', 'write', checked));
    expect(error.message).toBe(
      'path escapes the tool root: "a/new.txt" (a directory on the way became a symlink)',
    );
    // Linux answers O_DIRECTORY | O_NOFOLLOW on a symlink with ENOTDIR.
    expect(error.cause).toMatchObject({ code: 'ENOTDIR' });
    expect(readdirSync(outside)).toEqual([]);
  });

  it('a directory that vanished after the check: writing is refused, the directory not made again', async () => {
    const checked = await resolveInside(root, 'inner/new.txt', { forCreate: true });
    rmSync(path.join(root, 'inner'), { recursive: true });
    const error = await failureOf(openInside(root, 'inner/new.txt', 'write', checked));
    expect(error.message).toBe('no such file or directory: "inner/new.txt"');
    expect(existsSync(path.join(root, 'inner'))).toBe(false);
  });

  it('opening a directory to update it is refused with the fs reason', async () => {
    const error = await failureOf(openInside(root, 'inner', 'update'));
    expect(error.message).toBe('is a directory: "inner"');
    expect(error.cause).toMatchObject({ code: 'EISDIR' });
  });

  it('makeDirectoriesInside refuses a directory outside the root and makes nothing there', async () => {
    const error = await failureOf(makeDirectoriesInside(root, path.join(outside, 'made'), 'made'));
    expect(error.message).toBe(
      'path escapes the tool root: "made" (its directory lies outside the root)',
    );
    expect(readdirSync(outside)).toEqual([]);
  });

  it('makeDirectoriesInside describes an fs failure on the way for the path the model gave', async () => {
    const long = 'x'.repeat(300);
    const error = await failureOf(makeDirectoriesInside(root, path.join(root, long), long));
    expect(error.message).toBe(`file operation failed (ENAMETOOLONG): "${long}"`);
    expect(error.cause).toMatchObject({ code: 'ENAMETOOLONG' });
  });

  it('makeDirectoriesInside makes nothing outside when a parent became a symlink out', async () => {
    mkdirSync(path.join(root, 'a'));
    const checked = await resolveInside(root, 'a/b/c', { forCreate: true });
    renameSync(path.join(root, 'a'), path.join(root, 'a-moved'));
    symlinkSync(outside, path.join(root, 'a'));
    const error = await failureOf(makeDirectoriesInside(root, checked, 'a/b/c'));
    expect(error.message).toMatch(/^path escapes the tool root: "a\/b\/c"/);
    expect(readdirSync(outside)).toEqual([]);
  });

  it('leaves no descriptor open, whether it opens, writes or refuses', async () => {
    const openCount = () => readdirSync('/proc/self/fd').length;
    const before = openCount();
    for (let round = 0; round < 20; round += 1) {
      const target = await resolveInside(root, `made/${round}/new.txt`, { forCreate: true });
      await makeDirectoriesInside(root, path.dirname(target), `made/${round}/new.txt`);
      const handle = await openInside(root, `made/${round}/new.txt`, 'write', target);
      await handle.close();
      await failureOf(openInside(root, 'inner', 'update'));
    }
    expect(openCount()).toBe(before);
  });
});
