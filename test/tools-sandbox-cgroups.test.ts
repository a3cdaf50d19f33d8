// The cgroups runCommand makes for one command, on this machine's real
// cgroup file system: the limits are written, release() kills what is left
// in them and removes them, and cgroups left by a worker that died are swept
// while a live worker's are kept. Skipped (with the reason) where the worker
// may not make a pids cgroup; the sandbox tests then refuse or skip too.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { makeCommandCgroups } from '../tools/lib/sandbox/command-cgroups.js';
import { skippedBecause } from './support/skipped-because.js';

const limits = { maxProcesses: 8, memoryBytes: 64 * 1024 * 1024 };
const probe = makeCommandCgroups(limits);
const dirs = probe.procsFiles.map(file => path.dirname(file));
const parents = dirs.map(dir => path.dirname(dir));
probe.release();
const reason = probe.pidsBounded ? undefined : 'no writable pids cgroup here';
if (reason !== undefined) console.warn(`cgroup tests skipped: ${reason}`);

const made: string[] = [];
afterEach(() => {
  for (const dir of made.splice(0)) {
    try {
      rmdirSync(dir);
    } catch {
      // Removed by the code under test.
    }
  }
});

describe.skipIf(reason !== undefined)(`command cgroups${skippedBecause(reason)}`, () => {
  it('write the limits, and release() kills a process left in them', async () => {
    const cgroups = makeCommandCgroups(limits);
    const pidsDir = cgroups.procsFiles
      .map(file => path.dirname(file))
      .find(dir => existsSync(path.join(dir, 'pids.max')));
    expect(pidsDir).toBeDefined();
    expect(readFileSync(path.join(pidsDir!, 'pids.max'), 'utf8').trim()).toBe('8');
    const child = spawn('sleep', ['100'], { stdio: 'ignore' });
    const ended = new Promise<string | null>(resolve =>
      child.on('exit', (_code, signal) => resolve(signal)),
    );
    for (const file of cgroups.procsFiles) writeFileSync(file, String(child.pid));
    cgroups.release();
    expect(await ended).toBe('SIGKILL');
  });

  it("sweep cgroups a dead worker left, and keep a live worker's", async () => {
    const deadPid = spawnSync('true').pid;
    const livePid = process.ppid;
    for (const parent of parents) {
      for (const owner of [deadPid, livePid]) {
        const dir = path.join(parent, `lal-fae-run-${owner}-1`);
        mkdirSync(dir);
        made.push(dir);
      }
    }
    // The sweep runs once per parent in a worker: a fresh copy of the module is a fresh worker.
    vi.resetModules();
    const fresh = await import('../tools/lib/sandbox/command-cgroups.js');
    fresh.makeCommandCgroups(limits).release();
    for (const parent of parents) {
      expect(
        existsSync(path.join(parent, `lal-fae-run-${deadPid}-1`)),
        `${parent}: the dead worker's cgroup`,
      ).toBe(false);
      expect(
        existsSync(path.join(parent, `lal-fae-run-${livePid}-1`)),
        `${parent}: the live worker's cgroup`,
      ).toBe(true);
    }
  });
});
