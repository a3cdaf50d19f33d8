/**
 * `npm start` run again on the same state folder is the same daemon, as
 * the real daemon is after `endo restart` (docs/behaviour.md 10.1): the
 * HOST is the HOST the agent served before, not a stranger "on another
 * daemon"; message numbers go on from where they were, so a number the
 * agent recalls names one message only.
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { makeSimRunner } from './support/run-sim.js';
import { useTempFolders } from './support/temp-folders.js';
import { runSimOnTty } from './support/run-sim-tty.js';
import { WAIT_MS } from './support/patience.js';

const repoRoot = fileURLToPath(new URL('..', import.meta.url));

const makeTempFolder = useTempFolders();
const runSim = makeSimRunner(makeTempFolder);

/** The numbers of the agent's lines a run printed (`#5 lal › …`). */
const numbersShown = (stdout: string): number[] =>
  [...stdout.matchAll(/^#(\d+) lal ›/gm)].map(match => Number(match[1]));

describe('npm start run again on the same state folder', () => {
  it('keeps the HOST one sender and numbers messages on from the last run', async () => {
    const state = { XDG_STATE_HOME: makeTempFolder('state') };
    const first = await runSim(['--demo'], state, input => {
      input.write('ping\n');
      input.end();
    });
    expect(first.code).toBe(0);
    const second = await runSim(['--demo'], state, input => {
      input.write('ping\n/status\n');
      input.end();
    });
    expect(second.stderr).toBe('');
    expect(second.code).toBe(0);
    const served = second.stdout.slice(second.stdout.indexOf('Senders served:'));
    expect(served).toMatch(/^- HOST: 2 turns/m);
    expect(served).not.toContain('another daemon');
    // Every number of the second run comes after every number of the first.
    expect(Math.min(...numbersShown(second.stdout))).toBeGreaterThan(
      Math.max(...numbersShown(first.stdout)),
    );
    expect(second.stdout).toMatch(/→ reply #\d+ "pong" ✓/);
  });
});

describe('npm start run again, with a tool the agent adopted', () => {
  it('gives the tool back before the agent starts, so it still runs (as the daemon keeps tools/)', async () => {
    const state = { XDG_STATE_HOME: makeTempFolder('state') };
    const root = makeTempFolder('root');
    const flags = ['--demo', '--persona', 'fae', '--yes'];
    const first = await runSim(flags, state, input => {
      input.write(`/attach runCommand ${root}\n`);
      void input.waitFor(/fae › I adopted runCommand/).then(() => input.end());
    });
    expect(first.code).toBe(0);
    const second = await runSim(flags, state, input => {
      input.write('please run `echo back > back.txt`\n');
      input.end();
    });
    expect(second.stderr).toBe('');
    expect(second.code).toBe(0);
    // By the name /attach took and the tool calls show, not its pet name (run-command): issue 45.
    expect(second.stdout).toMatch(
      /^Given back to the agent: the tools it held from your \/attach \(runCommand\)\.$/m,
    );
    expect(second.stdout).toMatch(/→ runCommand command="echo back > back\.txt" ✓/);
    expect(second.stdout).not.toMatch(/Unknown tool/);
    expect(readFileSync(join(root, 'back.txt'), 'utf8')).toBe('back\n');
  });
});

describe('npm start on a terminal, run again', () => {
  it('finds last run’s lines with the up arrow (the input history is kept in the state folder)', async () => {
    const state = { XDG_STATE_HOME: makeTempFolder('state'), TMPDIR: makeTempFolder('tmp') };
    const cwd = makeTempFolder('cwd');
    await runSimOnTty(
      ['--demo'],
      state,
      [
        { after: /Lal agent ready/, keys: 'say kept-line-4521\r' },
        { after: /turn over/, keys: '/quit\r' },
      ],
      cwd,
    );
    const second = await runSimOnTty(
      ['--demo'],
      state,
      [
        // The up arrow brings back the last line typed before, /quit; twice, the one before it.
        { after: /Lal agent ready/, keys: '\x1b[A\x1b[A\r' },
        { after: /turn over/, keys: '/quit\r' },
      ],
      cwd,
    );
    expect(second).toMatch(/You said "say kept-line-4521"/);
  });
});

describe('npm start killed (kill -9) after the greeting', () => {
  // Trial 13 M8: the next run greeted with the number the killed run had shown. A number shown
  // once names one message only in that state folder (docs/behaviour.md 10.1).
  it('the next run numbers on past every number the killed run showed', async () => {
    const env = { ...process.env, LAL_SIM_NO_BUILD: '1', LAL_PROVIDER: '', LAL_MODEL: '' };
    const state = { XDG_STATE_HOME: makeTempFolder('state'), TMPDIR: makeTempFolder('tmp') };
    // The simulator itself (not scripts/start.mjs, which cannot pass SIGKILL on), killed once greeted.
    const child = spawn(process.execPath, [join(repoRoot, 'dist/sim/chat/main.js'), '--demo'], {
      cwd: makeTempFolder('cwd'),
      env: { ...env, ...state },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    const greeted = new Promise<void>(resolve => {
      child.stdout.on('data', (chunk: Buffer) => {
        stdout += chunk.toString('utf8');
        if (/^#\d+ lal ›/m.test(stdout)) resolve();
      });
    });
    const closed = new Promise(resolve => child.on('close', resolve));
    const bound = setTimeout(() => child.kill('SIGKILL'), WAIT_MS);
    await greeted;
    child.kill('SIGKILL');
    await closed;
    clearTimeout(bound);
    const killedShown = numbersShown(stdout);
    expect(killedShown.length).toBeGreaterThan(0);
    const next = await runSim(['--demo'], state, input => input.end());
    expect(next.code).toBe(0);
    expect(Math.min(...numbersShown(next.stdout))).toBeGreaterThan(Math.max(...killedShown));
  });
});
