// The confinement battery: every file tool refuses every way out of its root
// (.., absolute, sibling prefix, NUL byte, symlinks out to a file, to a
// directory, through a symlinked parent, dangling) and changes nothing
// outside; nested paths and symlinks that stay inside are allowed.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { E } from '@endo/far';
import { existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { open } from 'node:fs/promises';
import path from 'node:path';
import * as readFile from '../tools/read-file.js';
import * as writeFile from '../tools/write-file.js';
import * as editFile from '../tools/edit-file.js';
import * as listDir from '../tools/list-dir.js';
import { assertOpenedInside, isInside, resolveInside } from '../tools/lib/confine.js';
import type { FaeTool } from '../src/agent-tools/fae-tool.js';
import { makeTempDir, makeTool, snapshotTree } from './tools-helpers.js';

let base: string; // holds the root and everything that must stay untouched
let root: string;
let outside: string;

/**
 * <base>/app                 the root
 *   inner/real.txt           "inner SECRET"
 *   link-file-in  -> inner/real.txt
 *   link-dir-in   -> inner
 *   link-file-out -> <base>/outside/secret.txt
 *   link-dir-out  -> <base>/outside
 *   link-dangling-out -> <base>/outside/not-yet.txt
 * <base>/app-evil/secret     sibling with the root as a name prefix
 * <base>/outside/secret.txt
 */
beforeEach(() => {
  base = makeTempDir('confine');
  root = path.join(base, 'app');
  outside = path.join(base, 'outside');
  mkdirSync(path.join(root, 'inner'), { recursive: true });
  mkdirSync(path.join(base, 'app-evil'));
  mkdirSync(outside);
  writeFileSync(path.join(root, 'inner', 'real.txt'), 'inner SECRET\n');
  writeFileSync(path.join(base, 'app-evil', 'secret'), 'evil SECRET\n');
  writeFileSync(path.join(outside, 'secret.txt'), 'outside SECRET\n');
  symlinkSync('inner/real.txt', path.join(root, 'link-file-in'));
  symlinkSync('inner', path.join(root, 'link-dir-in'));
  symlinkSync(path.join(outside, 'secret.txt'), path.join(root, 'link-file-out'));
  symlinkSync(outside, path.join(root, 'link-dir-out'));
  symlinkSync(path.join(outside, 'not-yet.txt'), path.join(root, 'link-dangling-out'));
});

afterEach(() => {
  rmSync(base, { recursive: true, force: true });
});

/** How each file tool is called on a path; edits aim at text every target holds. */
const fileTools = {
  readFile: { module: readFile, args: (p: string) => ({ path: p }) },
  writeFile: { module: writeFile, args: (p: string) => ({ path: p, content: 'PWNED' }) },
  editFile: {
    module: editFile,
    args: (p: string) => ({ path: p, oldString: 'SECRET', newString: 'PWNED' }),
  },
  listDir: { module: listDir, args: (p: string) => ({ path: p }) },
} as const;
type FileToolName = keyof typeof fileTools;

function makeFileTool(name: FileToolName): FaeTool {
  return makeTool(fileTools[name].module, { FAE_CWD: root });
}

// Paths are built lazily: the temporary directories exist only per test.
const escapes: [string, () => string, RegExp][] = [
  ['dot-dot', () => '../outside/secret.txt', /path escapes the tool root: .*climbs out/],
  [
    'dot-dot after a real dir',
    () => 'inner/../../outside/secret.txt',
    /path escapes the tool root/,
  ],
  [
    'absolute path',
    () => path.join(outside, 'secret.txt'),
    /path escapes the tool root: .*absolute/,
  ],
  ['absolute path inside the root', () => path.join(root, 'inner', 'real.txt'), /absolute/],
  ['sibling prefix', () => '../app-evil/secret', /path escapes the tool root/],
  [
    'NUL byte',
    () => 'inner/real.txt\0../../outside/secret.txt',
    /path escapes the tool root: .*NUL/,
  ],
  ['symlink to a file outside', () => 'link-file-out', /path escapes the tool root: .*symlink/],
  [
    'file under a symlinked dir outside',
    () => 'link-dir-out/secret.txt',
    /path escapes the tool root: .*symlink/,
  ],
  ['symlinked dir outside itself', () => 'link-dir-out', /path escapes the tool root: .*symlink/],
];

describe.each(Object.keys(fileTools) as FileToolName[])('%s confinement', toolName => {
  it.each(escapes)('refuses %s and changes nothing outside', async (_label, makePath, expected) => {
    const userPath = makePath();
    const before = snapshotTree(base, [root]);
    const tool = makeFileTool(toolName);
    await expect(E(tool).execute(harden(fileTools[toolName].args(userPath)))).rejects.toThrow(
      expected,
    );
    expect(snapshotTree(base, [root])).toEqual(before);
  });

  it('refuses a dangling symlink pointing outside and creates nothing there', async () => {
    const tool = makeFileTool(toolName);
    await expect(
      E(tool).execute(harden(fileTools[toolName].args('link-dangling-out'))),
    ).rejects.toThrow(/dangling symlink/);
    expect(existsSync(path.join(outside, 'not-yet.txt'))).toBe(false);
  });

  it('allows a symlink inside the root that points inside the root', async () => {
    const tool = makeFileTool(toolName);
    const target = toolName === 'listDir' ? 'link-dir-in' : 'link-file-in';
    const realFile = path.join(root, 'inner', 'real.txt');
    const changesFile = toolName === 'writeFile' || toolName === 'editFile';
    await expect(E(tool).execute(harden(fileTools[toolName].args(target)))).resolves.toBeTruthy();
    if (changesFile) expect(readFileSync(realFile, 'utf8')).toContain('PWNED');
    writeFileSync(realFile, 'inner SECRET\n');
    const viaDir = toolName === 'listDir' ? 'link-dir-in/.' : 'link-dir-in/real.txt';
    await expect(E(tool).execute(harden(fileTools[toolName].args(viaDir)))).resolves.toBeTruthy();
    if (changesFile) expect(readFileSync(realFile, 'utf8')).toContain('PWNED');
  });

  it('allows a `..` that stays inside the root', async () => {
    const tool = makeFileTool(toolName);
    const target = toolName === 'listDir' ? 'inner/../inner' : 'inner/../inner/real.txt';
    await expect(E(tool).execute(harden(fileTools[toolName].args(target)))).resolves.toBeTruthy();
  });
});

describe('writeFile through symlinked parents', () => {
  it('refuses a new file, or new directories, under a symlinked dir pointing outside', async () => {
    const before = snapshotTree(base, [root]);
    const tool = makeFileTool('writeFile');
    for (const userPath of ['link-dir-out/new.txt', 'link-dir-out/sub/deeper/new.txt']) {
      await expect(E(tool).execute(harden({ path: userPath, content: 'PWNED' }))).rejects.toThrow(
        /path escapes the tool root: .*symlink/,
      );
    }
    expect(snapshotTree(base, [root])).toEqual(before);
    expect(existsSync(path.join(outside, 'sub'))).toBe(false);
  });

  it('writes a new file under a symlinked dir pointing inside', async () => {
    const tool = makeFileTool('writeFile');
    await E(tool).execute(harden({ path: 'link-dir-in/made/new.txt', content: 'ok' }));
    expect(readFileSync(path.join(root, 'inner', 'made', 'new.txt'), 'utf8')).toBe('ok');
  });

  it('writes through a symlink to a file inside, changing its target', async () => {
    const tool = makeFileTool('writeFile');
    await E(tool).execute(harden({ path: 'link-file-in', content: 'replaced' }));
    expect(readFileSync(path.join(root, 'inner', 'real.txt'), 'utf8')).toBe('replaced');
  });
});

describe('a root that is itself reached through a symlink', () => {
  it('is fixed at its real path, and its own escapes are still refused', async () => {
    const linkToRoot = path.join(base, 'root-link');
    symlinkSync(root, linkToRoot);
    const tool = makeTool(readFile, { FAE_CWD: linkToRoot });
    const result = (await E(tool).execute(harden({ path: 'inner/real.txt' }))) as {
      content: string;
    };
    expect(result.content).toBe('inner SECRET\n');
    await expect(E(tool).execute(harden({ path: '../outside/secret.txt' }))).rejects.toThrow(
      /escapes/,
    );
  });
});

describe('confine.ts', () => {
  it('isInside compares path components, not string prefixes', () => {
    expect(isInside('/srv/app', '/srv/app')).toBe(true);
    expect(isInside('/srv/app', '/srv/app/a/b')).toBe(true);
    expect(isInside('/srv/app', '/srv/app/..hidden')).toBe(true);
    expect(isInside('/srv/app', '/srv/app-evil')).toBe(false);
    expect(isInside('/srv/app', '/srv/app-evil/secret')).toBe(false);
    expect(isInside('/srv/app', '/srv')).toBe(false);
    expect(isInside('/srv/app', '/etc/passwd')).toBe(false);
  });

  it('resolveInside returns real paths, appending a missing tail only for creation', async () => {
    expect(await resolveInside(root, 'link-file-in')).toBe(path.join(root, 'inner', 'real.txt'));
    expect(await resolveInside(root, '.')).toBe(root);
    expect(await resolveInside(root, 'new/dir/file.txt', { forCreate: true })).toBe(
      path.join(root, 'new', 'dir', 'file.txt'),
    );
    await expect(resolveInside(root, 'new/dir/file.txt')).rejects.toThrow(
      /no such file or directory: "new\/dir\/file.txt"/,
    );
    await expect(resolveInside(root, '')).rejects.toThrow(/must not be empty/);
    await expect(resolveInside(root, 42)).rejects.toThrow(/must be a string/);
    await expect(resolveInside(root, 'inner/real.txt/child', { forCreate: true })).rejects.toThrow(
      /not a directory/,
    );
  });

  it('refuses a symlink loop clearly', async () => {
    symlinkSync('loop-b', path.join(root, 'loop-a'));
    symlinkSync('loop-a', path.join(root, 'loop-b'));
    await expect(resolveInside(root, 'loop-a')).rejects.toThrow(/symlink loop/);
  });

  it('a refusal keeps the fs error it was made from as its cause; the tool still answers with the message alone', async () => {
    symlinkSync('loop-b', path.join(root, 'loop-a'));
    symlinkSync('loop-a', path.join(root, 'loop-b'));
    const loop = await resolveInside(root, 'loop-a').then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(loop).toBeInstanceOf(Error);
    expect((loop as Error).cause).toMatchObject({ code: 'ELOOP' });
    const missing = await resolveInside(root, 'no-such-dir/file.txt').then(
      () => undefined,
      (error: unknown) => error,
    );
    expect((missing as Error).message).toMatch(
      /no such file or directory: "no-such-dir\/file.txt"/,
    );
    expect((missing as Error).cause).toMatchObject({ code: 'ENOENT' });
    // Through E() the caller gets a fresh Error: the cause (which names the real path) stays here.
    const tool = makeFileTool('readFile');
    const told = await E(tool)
      .execute(harden(fileTools.readFile.args('no-such-dir/file.txt')))
      .then(
        () => undefined,
        (error: unknown) => error,
      );
    expect(told).toBeInstanceOf(Error);
    expect((told as Error).cause).toBeUndefined();
    expect((told as Error).message).not.toContain(root);
  });

  it.runIf(process.platform === 'linux')(
    'a descriptor opened outside the root is caught after the open (the TOCTOU re-check; runs only on Linux: /proc)',
    async () => {
      const handle = await open(path.join(outside, 'secret.txt'), 'r');
      try {
        await expect(assertOpenedInside(root, handle.fd, 'swapped.txt')).rejects.toThrow(
          /path escapes the tool root: "swapped.txt".*while opening/,
        );
      } finally {
        await handle.close();
      }
      const inside = await open(path.join(root, 'inner', 'real.txt'), 'r');
      try {
        await expect(
          assertOpenedInside(root, inside.fd, 'inner/real.txt'),
        ).resolves.toBeUndefined();
      } finally {
        await inside.close();
      }
    },
  );
});
