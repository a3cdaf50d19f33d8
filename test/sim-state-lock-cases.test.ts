/**
 * Which run holds a state folder (sim/chat/state-lock.ts, docs/behaviour.md 10.1), judged at the
 * module: the lock file names this process; a live run of this same program (from any clone: the
 * entry's last three path parts) holds it; a lock whose process is gone, whose pid is now another
 * program's, or that names no pid is stale and taken over; release takes away only our own lock.
 * sim-state-lock judges it with two real `npm start` runs (the built simulator, which no Stryker
 * mutant reaches).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { lockedLine, lockStateFolder } from '../sim/chat/state-lock.js';
import { useTempFolders } from './support/temp-folders.js';
import { WAIT_MS } from './support/patience.js';

const makeTempFolder = useTempFolders();
const lockFile = (folder: string) => join(folder, 'running.pid');

const entry = process.argv[1];
const children: ChildProcess[] = [];
afterEach(() => {
  process.argv[1] = entry as string;
  for (const child of children.splice(0)) child.kill('SIGKILL');
});

/** A node process that runs `script` (a path) until killed; resolves once it runs. */
const runScript = async (script: string): Promise<number> => {
  writeFileSync(script, "process.stdout.write('up\\n'); setInterval(() => {}, 1000);\n");
  const child = spawn(process.execPath, [script], { stdio: ['ignore', 'pipe', 'ignore'] });
  children.push(child);
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(Error('the child did not start')), WAIT_MS);
    child.stdout.once('data', () => {
      clearTimeout(timer);
      resolve();
    });
  });
  return child.pid!;
};

/** This process's open descriptors on `path` (Linux: /proc/self/fd). */
const openOn = (path: string): string[] =>
  readdirSync('/proc/self/fd').filter(fd => {
    try {
      return readlinkSync(join('/proc/self/fd', fd)) === path;
    } catch {
      return false;
    }
  });

/** A pid no process has now: a child's, once it has exited. */
const gonePid = (): number => spawnSync(process.execPath, ['-e', '0']).pid;

describe('taking the lock', () => {
  it('writes this process in a file of its own, and release takes it away', () => {
    const folder = makeTempFolder('lock');
    const exitListeners = process.listenerCount('exit');
    const lock = lockStateFolder(folder);
    expect(lock.ok).toBe(true);
    expect(readFileSync(lockFile(folder), 'utf8')).toBe(`${process.pid}\n`);
    expect((statSync(lockFile(folder)).mode % 0o1000).toString(8)).toBe('600');
    // Written and closed: no descriptor of this process is left open on it.
    expect(openOn(lockFile(folder))).toEqual([]);
    // Released when this process exits, failing an earlier release.
    expect(process.listenerCount('exit')).toBe(exitListeners + 1);
    if (lock.ok) lock.release();
    expect(existsSync(lockFile(folder))).toBe(false);
    expect(process.listenerCount('exit')).toBe(exitListeners);
  });

  it('release leaves a lock that names another process (taken over since) where it is', () => {
    const folder = makeTempFolder('lock');
    const lock = lockStateFolder(folder);
    writeFileSync(lockFile(folder), '424242\n');
    if (lock.ok) lock.release();
    expect(readFileSync(lockFile(folder), 'utf8')).toBe('424242\n');
  });

  it('a folder that is not there is an error, not a lock held', () => {
    const folder = join(makeTempFolder('lock'), 'missing');
    expect(() => lockStateFolder(folder)).toThrow(/ENOENT/);
  });
});

describe('a lock found in the folder', () => {
  it('held by a live run of this program, from another clone too: refused, naming its pid', async () => {
    const root = makeTempFolder('clone');
    mkdirSync(join(root, 'other', 'sim', 'chat'), { recursive: true });
    const pid = await runScript(join(root, 'other', 'sim', 'chat', 'start.mjs'));
    process.argv[1] = join('/elsewhere', 'deep', 'down', 'clone', 'sim', 'chat', 'start.mjs');
    const folder = makeTempFolder('lock');
    writeFileSync(lockFile(folder), `${pid}\n`);
    expect(lockStateFolder(folder)).toEqual({ ok: false, holder: pid });
    expect(readFileSync(lockFile(folder), 'utf8')).toBe(`${pid}\n`);
  });

  it('held by a live process of another program (its pid reused): stale, taken over', async () => {
    const root = makeTempFolder('clone');
    mkdirSync(join(root, 'sim', 'other'), { recursive: true });
    // The same file name, in another folder: only the last three parts together say it is ours.
    const pid = await runScript(join(root, 'sim', 'other', 'start.mjs'));
    process.argv[1] = join('/somewhere', 'sim', 'chat', 'start.mjs');
    const folder = makeTempFolder('lock');
    writeFileSync(lockFile(folder), `${pid}\n`);
    const lock = lockStateFolder(folder);
    expect(lock.ok).toBe(true);
    expect(readFileSync(lockFile(folder), 'utf8')).toBe(`${process.pid}\n`);
    if (lock.ok) lock.release();
  });

  it('with no entry to compare (no program path), any live process holds it', async () => {
    const root = makeTempFolder('clone');
    const pid = await runScript(join(root, 'anything.mjs'));
    process.argv.splice(1);
    const folder = makeTempFolder('lock');
    writeFileSync(lockFile(folder), `${pid}\n`);
    expect(lockStateFolder(folder)).toEqual({ ok: false, holder: pid });
  });

  it('whose process is gone: stale, taken over', () => {
    const folder = makeTempFolder('lock');
    writeFileSync(lockFile(folder), `${gonePid()}\n`);
    const lock = lockStateFolder(folder);
    expect(lock.ok).toBe(true);
    expect(readFileSync(lockFile(folder), 'utf8')).toBe(`${process.pid}\n`);
    if (lock.ok) lock.release();
  });

  it('naming this very process (a lock this run left): taken again', () => {
    const folder = makeTempFolder('lock');
    process.argv.splice(1);
    writeFileSync(lockFile(folder), `${process.pid}\n`);
    const lock = lockStateFolder(folder);
    expect(lock.ok).toBe(true);
    if (lock.ok) lock.release();
  });

  it('that names no pid (half written, not a number, 0, negative, a fraction): stale, taken over', () => {
    process.argv.splice(1);
    for (const text of ['', '\n', 'abc\n', '0\n', '-1\n', '1.5\n', '1e400\n']) {
      const folder = makeTempFolder('lock');
      writeFileSync(lockFile(folder), text);
      const lock = lockStateFolder(folder);
      expect({ text, ok: lock.ok }).toEqual({ text, ok: true });
      expect(readFileSync(lockFile(folder), 'utf8')).toBe(`${process.pid}\n`);
      if (lock.ok) lock.release();
    }
  });

  it('the pid is read with the spaces around it', async () => {
    const pid = await runScript(join(makeTempFolder('clone'), 'anything.mjs'));
    process.argv.splice(1);
    const folder = makeTempFolder('lock');
    writeFileSync(lockFile(folder), ` ${pid} \n`);
    expect(lockStateFolder(folder)).toEqual({ ok: false, holder: pid });
  });
});

describe('the line that refuses a second run', () => {
  it('names the folder, the process when known, and how to use another folder', () => {
    expect(lockedLine('~/.local/state/lal', 42)).toBe(
      '~/.local/state/lal is in use by another npm start (process 42): two runs on one state folder would lose one conversation. Quit that one first, or give this one a state folder of its own: XDG_STATE_HOME=<another folder> npm start …',
    );
    expect(lockedLine('~/.local/state/lal', undefined)).toBe(
      '~/.local/state/lal is in use by another npm start: two runs on one state folder would lose one conversation. Quit that one first, or give this one a state folder of its own: XDG_STATE_HOME=<another folder> npm start …',
    );
  });
});
