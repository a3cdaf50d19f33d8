// Tool caplets given arguments of the wrong kind, through E() as the agent
// calls them: each refusal names the tool, the argument and the type it got
// (never the value), and nothing is read or written. Also the roots that
// vanish or were never directories, and entries a listing cannot name a
// kind for.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { E } from '@endo/far';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import * as greet from '../tools/greet.js';
import * as listDir from '../tools/list-dir.js';
import * as math from '../tools/math.js';
import * as readFile from '../tools/read-file.js';
import * as writeFile from '../tools/write-file.js';
import { makeTempDir, makeTool } from './tools-helpers.js';

let root: string;
beforeEach(() => {
  root = makeTempDir('bad-input');
});
afterEach(() => {
  rmSync(root, { recursive: true, force: true });
});

const execute = (tool: ReturnType<typeof makeTool>, args: unknown) =>
  E(tool).execute(harden(args) as Record<string, unknown>);

describe('arguments of the wrong kind', () => {
  it("a list or null instead of a record is refused by the tool's guard before it runs", async () => {
    const tool = makeTool(writeFile, { FAE_CWD: root });
    await expect(execute(tool, ['x.txt', 'content'])).rejects.toThrow(
      /In "execute" method of \(writeFile\): arg 0: .*copyRecord/,
    );
    await expect(execute(tool, null)).rejects.toThrow(
      /In "execute" method of \(writeFile\): arg 0: .*copyRecord/,
    );
    expect(readdirSync(root)).toEqual([]);
  });

  it('a path that is a number, a list or an object is named by its type', async () => {
    const tool = makeTool(readFile, { FAE_CWD: root });
    await expect(execute(tool, { path: 42 })).rejects.toThrow(
      /^readFile: path must be a string, got a number$/,
    );
    await expect(execute(tool, { path: ['a', 'b'] })).rejects.toThrow(
      /^readFile: path must be a string, got an array$/,
    );
    await expect(execute(tool, { path: { secret: 'sk-hidden' } })).rejects.toThrow(
      /^readFile: path must be a string, got an object$/,
    );
    await expect(execute(tool, { path: null })).rejects.toThrow(/^readFile: path is required$/);
    const lister = makeTool(listDir, { FAE_CWD: root });
    await expect(execute(lister, { path: 7 })).rejects.toThrow(
      /^listDir: path must be a string, got a number$/,
    );
  });

  it('line numbers must be whole numbers; quoted digits and bigints are accepted', async () => {
    writeFileSync(path.join(root, 'lines.txt'), 'one\ntwo\nthree\n');
    const tool = makeTool(readFile, { FAE_CWD: root });
    await expect(execute(tool, { path: 'lines.txt', offset: 'second' })).rejects.toThrow(
      /^readFile: offset must be an integer, got a string$/,
    );
    await expect(execute(tool, { path: 'lines.txt', limit: 1.5 })).rejects.toThrow(
      /^readFile: limit must be an integer, got a number$/,
    );
    await expect(execute(tool, { path: 'lines.txt', limit: true })).rejects.toThrow(
      /^readFile: limit must be an integer, got a boolean$/,
    );
    expect(await execute(tool, { path: 'lines.txt', offset: ' 2 ', limit: 1n })).toMatchObject({
      content: 'two\n',
    });
  });

  it('greet refuses a name of only spaces and a language that is not text', async () => {
    const tool = makeTool(greet);
    await expect(execute(tool, { name: '   ' })).rejects.toThrow(/^greet: name must not be blank$/);
    await expect(execute(tool, { name: 'Ada', language: 3 })).rejects.toThrow(
      /^greet: language must be a string, got a number$/,
    );
  });

  it('math refuses a bigint too large to compute exactly, and never answers -0', async () => {
    const tool = makeTool(math);
    await expect(execute(tool, { operation: 'add', a: 2n ** 60n, b: 1 })).rejects.toThrow(
      /^math: a is too large to compute exactly$/,
    );
    const result = (await execute(tool, { operation: 'multiply', a: -1, b: 0 })) as {
      result: number;
    };
    expect(Object.is(result.result, -0)).toBe(false);
    expect(result.result).toBe(0);
  });
});

describe('the tool root and what lies in it', () => {
  it('a FAE_CWD that is a file is refused when the tool is made', () => {
    const file = path.join(root, 'plain.txt');
    writeFileSync(file, 'x');
    expect(() => makeTool(readFile, { FAE_CWD: file })).toThrow(
      `readFile: FAE_CWD is not a directory: ${JSON.stringify(file)}`,
    );
  });

  it('a root removed after the tool was made: writing says so and creates nothing', async () => {
    const gone = path.join(root, 'gone');
    mkdirSync(gone);
    const tool = makeTool(writeFile, { FAE_CWD: gone });
    rmSync(gone, { recursive: true });
    await expect(execute(tool, { path: 'new/file.txt', content: 'x' })).rejects.toThrow(
      /^the tool root no longer exists$/,
    );
    expect(existsSync(gone)).toBe(false);
  });

  it('a path component too long for the file system is a clear failure naming only the path given', async () => {
    const tool = makeTool(readFile, { FAE_CWD: root });
    const long = 'n'.repeat(300);
    const failure = await execute(tool, { path: long }).then(
      () => undefined,
      (error: Error) => error,
    );
    expect(failure?.message).toBe(`file operation failed (ENAMETOOLONG): ${JSON.stringify(long)}`);
    expect(failure?.message).not.toContain(root);
  });

  it('a file beyond 32 MiB is refused before it is loaded, with its size', async () => {
    const big = path.join(root, 'big.log');
    writeFileSync(big, '');
    truncateSync(big, 33 * 1024 * 1024); // sparse: no disk used
    const tool = makeTool(readFile, { FAE_CWD: root });
    await expect(execute(tool, { path: 'big.log' })).rejects.toThrow(
      /^file too large: "big\.log" is 34603008 bytes \(limit 33554432\)$/,
    );
  });

  it('an empty file reads as no lines', async () => {
    writeFileSync(path.join(root, 'empty.txt'), '');
    const tool = makeTool(readFile, { FAE_CWD: root });
    expect(await execute(tool, { path: 'empty.txt' })).toMatchObject({
      content: '',
      totalLines: 0,
      totalBytes: 0,
    });
  });

  it('a listing names a FIFO as "other", beside files and folders', async () => {
    mkdirSync(path.join(root, 'folder'));
    writeFileSync(path.join(root, 'file.txt'), 'abc');
    expect(spawnSync('mkfifo', [path.join(root, 'pipe')]).status).toBe(0);
    const tool = makeTool(listDir, { FAE_CWD: root });
    const listed = (await execute(tool, {})) as { entries: { name: string; type: string }[] };
    expect(listed.entries.map(entry => [entry.name, entry.type])).toEqual([
      ['file.txt', 'file'],
      ['folder', 'dir'],
      ['pipe', 'other'],
    ]);
  });
});
