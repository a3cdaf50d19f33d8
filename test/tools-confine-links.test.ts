// Confinement against hard links and against creating before checking
// (behaviour 6.5): a hard link inside the root to a file outside it is
// neither read nor written through, by any file tool; and a file is never
// created before the directory it goes in is known to be inside the root,
// even when a checked directory is swapped for a symlink out afterwards.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { E } from '@endo/far';
import {
  existsSync,
  linkSync,
  mkdirSync,
  readFileSync,
  renameSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import * as readFile from '../tools/read-file.js';
import * as writeFile from '../tools/write-file.js';
import * as editFile from '../tools/edit-file.js';
import { openInside, resolveInside } from '../tools/lib/confine.js';
import { makeTempDir, makeTool } from './tools-helpers.js';

let base: string;
let root: string;
let outside: string;

beforeEach(() => {
  base = makeTempDir('links');
  root = path.join(base, 'app');
  outside = path.join(base, 'outside');
  mkdirSync(path.join(root, 'sub'), { recursive: true });
  mkdirSync(outside);
  writeFileSync(path.join(outside, 'secret.txt'), 'outside SECRET\n');
  // A hard link inside the root to the file outside it (same file system: both under base).
  linkSync(path.join(outside, 'secret.txt'), path.join(root, 'hard-link'));
  writeFileSync(path.join(root, 'plain.txt'), 'inside\n');
});

afterEach(() => {
  rmSync(base, { recursive: true, force: true });
});

describe('hard links', () => {
  const calls = [
    ['readFile', readFile, { path: 'hard-link' }],
    ['writeFile', writeFile, { path: 'hard-link', content: 'PWNED' }],
    ['editFile', editFile, { path: 'hard-link', oldString: 'SECRET', newString: 'PWNED' }],
  ] as const;
  it.each(calls)(
    '%s refuses a hard link to a file outside the root and changes nothing',
    async (_name, module, args) => {
      const tool = makeTool(module, { FAE_CWD: root });
      await expect(E(tool).execute(harden({ ...args }))).rejects.toThrow(
        /path escapes the tool root: "hard-link" \(it is a hard link: the file has 2 names/,
      );
      expect(readFileSync(path.join(outside, 'secret.txt'), 'utf8')).toBe('outside SECRET\n');
    },
  );

  it('an ordinary file is still read and written', async () => {
    const tool = makeTool(readFile, { FAE_CWD: root });
    expect(
      ((await E(tool).execute(harden({ path: 'plain.txt' }))) as { content: string }).content,
    ).toBe('inside\n');
    const writer = makeTool(writeFile, { FAE_CWD: root });
    await E(writer).execute(harden({ path: 'plain.txt', content: 'new' }));
    expect(readFileSync(path.join(root, 'plain.txt'), 'utf8')).toBe('new');
  });
});

describe('nothing is created before its place is checked', () => {
  it('a directory swapped for a symlink out after the check: refused, and no file appears outside', async () => {
    const resolved = await resolveInside(root, 'sub/new.txt', { forCreate: true });
    // Between the check and the creation, sub/ is swapped for a symlink to outside.
    renameSync(path.join(root, 'sub'), path.join(root, 'sub-moved'));
    symlinkSync(outside, path.join(root, 'sub'));
    await expect(openInside(root, 'sub/new.txt', 'write', resolved)).rejects.toThrow(
      /path escapes the tool root/,
    );
    expect(existsSync(path.join(outside, 'new.txt'))).toBe(false);
  });

  it('a parent higher up swapped the same way: refused, nothing created outside', async () => {
    mkdirSync(path.join(root, 'a', 'b'), { recursive: true });
    const resolved = await resolveInside(root, 'a/b/new.txt', { forCreate: true });
    mkdirSync(path.join(outside, 'b'));
    renameSync(path.join(root, 'a'), path.join(root, 'a-moved'));
    symlinkSync(outside, path.join(root, 'a'));
    await expect(openInside(root, 'a/b/new.txt', 'write', resolved)).rejects.toThrow(
      /path escapes the tool root/,
    );
    expect(existsSync(path.join(outside, 'b', 'new.txt'))).toBe(false);
  });

  it('writeFile still makes missing directories inside the root', async () => {
    const tool = makeTool(writeFile, { FAE_CWD: root });
    const result = (await E(tool).execute(harden({ path: 'x/y/z/new.txt', content: 'ok' }))) as {
      created: boolean;
    };
    expect(result.created).toBe(true);
    expect(readFileSync(path.join(root, 'x', 'y', 'z', 'new.txt'), 'utf8')).toBe('ok');
  });
});
