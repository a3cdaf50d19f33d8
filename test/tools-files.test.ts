// What the file tools do inside their root: nested paths, line ranges, caps
// with their marker, editFile's exact-once rule and literal replacement,
// listDir's entry types.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { E } from '@endo/far';
import { mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import * as readFile from '../tools/read-file.js';
import * as writeFile from '../tools/write-file.js';
import * as editFile from '../tools/edit-file.js';
import * as listDir from '../tools/list-dir.js';
import { makeTempDir, makeTool } from './tools-helpers.js';

let root: string;
beforeEach(() => {
  root = makeTempDir('files');
});
afterEach(() => {
  rmSync(root, { recursive: true, force: true });
});

const env = () => ({ FAE_CWD: root });

describe('writeFile', () => {
  it('creates nested parents inside the root, then overwrites', async () => {
    const tool = makeTool(writeFile, env());
    expect(await E(tool).execute(harden({ path: 'a/b/c.txt', content: 'first version' }))).toEqual({
      path: 'a/b/c.txt',
      bytesWritten: 13,
      created: true,
    });
    expect(await E(tool).execute(harden({ path: 'a/b/c.txt', content: 'short' }))).toEqual({
      path: 'a/b/c.txt',
      bytesWritten: 5,
      created: false,
    });
    // Shorter content leaves no tail of the old one.
    expect(readFileSync(path.join(root, 'a/b/c.txt'), 'utf8')).toBe('short');
  });

  it('writes empty content, refuses a directory and a missing content', async () => {
    const tool = makeTool(writeFile, env());
    await E(tool).execute(harden({ path: 'empty.txt', content: '' }));
    expect(readFileSync(path.join(root, 'empty.txt'), 'utf8')).toBe('');
    mkdirSync(path.join(root, 'dir'));
    await expect(E(tool).execute(harden({ path: 'dir', content: 'x' }))).rejects.toThrow(
      /is a directory: "dir"/,
    );
    await expect(E(tool).execute(harden({ path: 'x.txt' }))).rejects.toThrow(/content is required/);
  });

  it('refuses to write to or read from a FIFO, without hanging', async () => {
    execFileSync('mkfifo', [path.join(root, 'pipe')]);
    await expect(
      E(makeTool(writeFile, env())).execute(harden({ path: 'pipe', content: 'x' })),
    ).rejects.toThrow(/no reader on the other end .*"pipe"/);
    await expect(E(makeTool(readFile, env())).execute(harden({ path: 'pipe' }))).rejects.toThrow(
      /not a regular file: "pipe"/,
    );
  });
});

describe('readFile', () => {
  const tenLines = `${Array.from({ length: 10 }, (_, index) => `line ${index + 1}`).join('\n')}\n`;

  it('reads a whole nested file with its size and line count', async () => {
    mkdirSync(path.join(root, 'x/y'), { recursive: true });
    writeFileSync(path.join(root, 'x/y/ten.txt'), tenLines);
    const result = await E(makeTool(readFile, env())).execute(harden({ path: 'x/y/ten.txt' }));
    expect(result).toEqual({
      path: 'x/y/ten.txt',
      content: tenLines,
      truncated: false,
      totalBytes: Buffer.byteLength(tenLines),
      totalLines: 10,
      startLine: 1,
      endLine: 10,
    });
  });

  it('reads a range of lines with offset and limit', async () => {
    writeFileSync(path.join(root, 'ten.txt'), tenLines);
    const tool = makeTool(readFile, env());
    const result = (await E(tool).execute(harden({ path: 'ten.txt', offset: 3, limit: 2 }))) as {
      content: string;
      startLine: number;
      endLine: number;
    };
    expect(result.content).toBe('line 3\nline 4\n');
    expect([result.startLine, result.endLine]).toEqual([3, 4]);
    await expect(E(tool).execute(harden({ path: 'ten.txt', offset: 11 }))).rejects.toThrow(
      /offset 11 is past the end .*10 lines/,
    );
    await expect(E(tool).execute(harden({ path: 'ten.txt', offset: 0 }))).rejects.toThrow(
      /offset must be between 1/,
    );
  });

  it('caps the content at maxBytes with a marker giving the original size', async () => {
    writeFileSync(path.join(root, 'big.txt'), 'é'.repeat(50_000)); // 100,000 bytes
    const result = (await E(makeTool(readFile, env())).execute(
      harden({ path: 'big.txt', maxBytes: 1001 }),
    )) as { content: string; truncated: boolean; totalBytes: number };
    expect(result.truncated).toBe(true);
    expect(result.totalBytes).toBe(100_000);
    // 1001 bytes would split a 2-byte character: 1000 are shown, none mangled.
    expect(result.content).toBe(
      `${'é'.repeat(500)}\n[... output cut: showing the first 1000 of 100000 bytes]`,
    );
  });

  it('refuses a missing file, a directory and a binary file clearly', async () => {
    mkdirSync(path.join(root, 'dir'));
    writeFileSync(path.join(root, 'bin'), Buffer.from([0x7f, 0x45, 0x00, 0x01]));
    const tool = makeTool(readFile, env());
    await expect(E(tool).execute(harden({ path: 'nope.txt' }))).rejects.toThrow(
      /no such file or directory: "nope.txt"/,
    );
    await expect(E(tool).execute(harden({ path: 'dir' }))).rejects.toThrow(/is a directory: "dir"/);
    await expect(E(tool).execute(harden({ path: 'bin' }))).rejects.toThrow(/looks binary/);
  });

  it('never shows the real root path in an error', async () => {
    const tool = makeTool(readFile, env());
    const error = await E(tool)
      .execute(harden({ path: 'missing/file.txt' }))
      .catch((reason: unknown) => reason);
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).not.toContain(root);
  });
});

describe('editFile', () => {
  it('writes the replacement literally: $&, $1, $$ and $` stay as typed', async () => {
    writeFileSync(path.join(root, 'price.txt'), 'price: PLACEHOLDER today\n');
    const tool = makeTool(editFile, env());
    const literal = "cost $& and $1 and $$ and $` and $'";
    const result = await E(tool).execute(
      harden({ path: 'price.txt', oldString: 'PLACEHOLDER', newString: literal }),
    );
    expect(result).toMatchObject({ path: 'price.txt', line: 1 });
    expect(readFileSync(path.join(root, 'price.txt'), 'utf8')).toBe(`price: ${literal} today\n`);
  });

  it('refuses zero matches and several matches, with counts, leaving the file as it was', async () => {
    const original = 'alpha\nbeta\nalpha\ngamma\nalpha\n';
    writeFileSync(path.join(root, 'words.txt'), original);
    const tool = makeTool(editFile, env());
    await expect(
      E(tool).execute(harden({ path: 'words.txt', oldString: 'delta', newString: 'x' })),
    ).rejects.toThrow(/oldString not found in "words.txt" \(0 matches\)/);
    await expect(
      E(tool).execute(harden({ path: 'words.txt', oldString: 'alpha', newString: 'x' })),
    ).rejects.toThrow(/oldString matches 3 places in "words.txt" \(lines 1, 3, 5\)/);
    expect(readFileSync(path.join(root, 'words.txt'), 'utf8')).toBe(original);
  });

  it('counts overlapping matches as ambiguous', async () => {
    writeFileSync(path.join(root, 'a.txt'), 'aaa');
    await expect(
      E(makeTool(editFile, env())).execute(
        harden({ path: 'a.txt', oldString: 'aa', newString: 'b' }),
      ),
    ).rejects.toThrow(/matches 2 places/);
  });

  it('edits a unique match in a nested file, shrinking it cleanly, and reports the line', async () => {
    mkdirSync(path.join(root, 'src/deep'), { recursive: true });
    writeFileSync(path.join(root, 'src/deep/m.ts'), 'const a = 1;\nconst b = 2; // long comment\n');
    const result = await E(makeTool(editFile, env())).execute(
      harden({ path: 'src/deep/m.ts', oldString: 'const b = 2; // long comment', newString: 'b' }),
    );
    expect(result).toMatchObject({ line: 2 });
    expect(readFileSync(path.join(root, 'src/deep/m.ts'), 'utf8')).toBe('const a = 1;\nb\n');
  });

  it('refuses an empty oldString', async () => {
    writeFileSync(path.join(root, 'a.txt'), 'abc');
    await expect(
      E(makeTool(editFile, env())).execute(
        harden({ path: 'a.txt', oldString: '', newString: 'x' }),
      ),
    ).rejects.toThrow(/oldString must not be empty/);
  });
});

describe('listDir', () => {
  it('lists entries sorted with type and size, symlinks not followed', async () => {
    mkdirSync(path.join(root, 'sub/inner'), { recursive: true });
    writeFileSync(path.join(root, 'sub/file.txt'), '12345');
    symlinkSync('file.txt', path.join(root, 'sub/link'));
    const tool = makeTool(listDir, env());
    const result = (await E(tool).execute(harden({ path: 'sub' }))) as {
      entries: { name: string; type: string; size: number }[];
      total: number;
      truncated: boolean;
    };
    expect(result.entries.map(({ name, type }) => [name, type])).toEqual([
      ['file.txt', 'file'],
      ['inner', 'dir'],
      ['link', 'symlink'],
    ]);
    expect(result.entries[0]?.size).toBe(5);
    expect([result.total, result.truncated]).toEqual([3, false]);
  });

  it('lists the root by default and refuses a file', async () => {
    writeFileSync(path.join(root, 'top.txt'), 'x');
    const tool = makeTool(listDir, env());
    const result = (await E(tool).execute(harden({}))) as {
      path: string;
      entries: { name: string }[];
    };
    expect(result.path).toBe('.');
    expect(result.entries.map(entry => entry.name)).toEqual(['top.txt']);
    await expect(E(tool).execute(harden({ path: 'top.txt' }))).rejects.toThrow(
      /not a directory: "top.txt"/,
    );
  });
});
