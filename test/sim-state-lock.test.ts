/**
 * One `npm start` at a time on a state folder (docs/behaviour.md 10.1): a
 * second run on the folder of a running one refuses at once, in one line
 * naming the process that holds it and how to use another folder, and loses
 * nothing of the first's conversation; a lock left by a killed run does not
 * block the next start. Two real processes, as a person starts them.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeSimRunner, type Run } from './support/run-sim.js';
import { useTempFolders } from './support/temp-folders.js';

const makeTempFolder = useTempFolders();
const runSim = makeSimRunner(makeTempFolder);

/** The numbers of the agent's lines a run printed (`#5 fae › …`). */
const numbersShown = (stdout: string): number[] =>
  [...stdout.matchAll(/^#(\d+) fae ›/gm)].map(match => Number(match[1]));

const flags = ['--demo', '--persona', 'fae'];

describe('two npm start on one state folder', () => {
  it('refuses the second at once, naming the first, and keeps the first whole', async () => {
    const state = { XDG_STATE_HOME: makeTempFolder('state') };
    let second: Run | undefined;
    const first = await runSim(flags, state, input => {
      input.write('ping\n');
      void input
        .waitFor(/fae › pong/)
        .then(async () => {
          second = await runSim(flags, state, other => {
            other.write('ping\n/memory\n');
            other.end();
          });
        })
        .finally(() => input.end());
    });
    expect(first.code).toBe(0);
    expect(second).toBeDefined();
    const refused = second!;
    expect(refused.code).toBe(1);
    // Refused before it greeted or answered anything.
    expect(refused.stdout).toBe('');
    const lines = refused.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/lal-fae\/fae-demo is in use by another npm start \(process \d+\)/);
    expect(lines[0]).toContain('XDG_STATE_HOME=');

    // The next start finds the first run's turn, and numbers on from it.
    const third = await runSim(flags, state, input => {
      input.write('/memory\n');
      input.end();
    });
    expect(third.stderr).toBe('');
    expect(third.code).toBe(0);
    expect(third.stdout).toMatch(/^ {2}· #\d+ from HOST: "ping"$/m);
    expect(Math.min(...numbersShown(third.stdout))).toBeGreaterThan(
      Math.max(...numbersShown(first.stdout)),
    );
  });

  it('takes over the lock of a run that was killed (its process gone)', async () => {
    const stateHome = makeTempFolder('state');
    const folder = join(stateHome, 'lal-fae', 'fae-demo');
    mkdirSync(folder, { recursive: true });
    // A pid that ran and is gone: a child that has ended.
    const gone = spawnSync(process.execPath, ['-e', '']).pid;
    writeFileSync(join(folder, 'running.pid'), `${gone}\n`);
    const run = await runSim(flags, { XDG_STATE_HOME: stateHome }, input => {
      input.write('ping\n');
      input.end();
    });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/fae › pong/);
    // And leaves none behind.
    expect(existsSync(join(folder, 'running.pid'))).toBe(false);
  });

  it('takes over a lock whose pid another program runs now (a pid reused after a restart)', async () => {
    const stateHome = makeTempFolder('state');
    const folder = join(stateHome, 'lal-fae', 'fae-demo');
    mkdirSync(folder, { recursive: true });
    // A live process that is not an npm start: the pid a killed run left, given to another program.
    const other = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], {
      stdio: 'ignore',
    });
    try {
      await new Promise<void>((resolve, reject) => {
        other.once('spawn', resolve);
        other.once('error', reject);
      });
      writeFileSync(join(folder, 'running.pid'), `${other.pid}\n`);
      const run = await runSim(flags, { XDG_STATE_HOME: stateHome }, input => {
        input.write('ping\n');
        input.end();
      });
      expect(run.stderr).toBe('');
      expect(run.code).toBe(0);
      expect(run.stdout).toMatch(/fae › pong/);
      // The other program runs on, untouched.
      expect(other.exitCode).toBeNull();
      expect(existsSync(join(folder, 'running.pid'))).toBe(false);
    } finally {
      other.kill();
    }
  });

  it('refuses before it loads the agent, the chat or the model check (README: "refuses at once")', async () => {
    // Issue 45: a refused run took 20 s at load 12, loading the whole program before the lock.
    const stateHome = makeTempFolder('state');
    const folder = join(stateHome, 'lal-fae', 'fae-demo');
    mkdirSync(folder, { recursive: true });
    // A live holder that runs this program, as /proc shows it (its entry's last three path parts).
    const holder = spawn(
      process.execPath,
      ['-e', 'setInterval(() => {}, 1000)', '/elsewhere/dist/sim/chat/main.js'],
      { stdio: 'ignore' },
    );
    // Every module the refused run loads, written down by a module hook (node:module's register).
    const hooks = makeTempFolder('hooks');
    const loaded = join(hooks, 'loaded.txt');
    writeFileSync(loaded, '');
    writeFileSync(
      join(hooks, 'hooks.mjs'),
      `import { appendFileSync } from 'node:fs';
export const load = (url, context, next) => {
  appendFileSync(${JSON.stringify(loaded)}, url + '\\n');
  return next(url, context);
};
`,
    );
    writeFileSync(
      join(hooks, 'register.mjs'),
      "import { register } from 'node:module'; register('./hooks.mjs', import.meta.url);\n",
    );
    try {
      await new Promise<void>((resolve, reject) => {
        holder.once('spawn', resolve);
        holder.once('error', reject);
      });
      writeFileSync(join(folder, 'running.pid'), `${holder.pid}\n`);
      const run = await runSim(
        flags,
        {
          XDG_STATE_HOME: stateHome,
          NODE_OPTIONS: `--import ${join(hooks, 'register.mjs')}`,
        },
        input => input.end(),
      );
      expect(run.code).toBe(1);
      expect(run.stderr).toMatch(/is in use by another npm start \(process \d+\)/);
      const modules = readFileSync(loaded, 'utf8').split('\n');
      // The lock was looked at, and nothing heavy came before it.
      expect(modules.some(url => url.endsWith('/dist/sim/chat/state-lock.js'))).toBe(true);
      const heavy = modules.filter(url =>
        /\/dist\/(agent\.js|sim\/chat\/(session|presenter|preflight|demo-double)\.js|providers\/check-server\.js|src\/loop\/)/.test(
          url,
        ),
      );
      expect(heavy).toEqual([]);
    } finally {
      holder.kill();
    }
  });
});
