/**
 * `npm start -- --newest` (README, "Commands": the newest daemon, with
 * channels and live progress): the person still reads the agent's words and
 * answers its approval requests. That daemon's `followMessages` answers an
 * exo-stream reader and writes senders as locators, and live progress edits
 * a placeholder reply until it is done: the simulator shows each finished
 * text once (the placeholder, which arrives finished, then the answer).
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeSimRunner } from './support/run-sim.js';
import { useTempFolders } from './support/temp-folders.js';

const makeTempFolder = useTempFolders();
const runSim = makeSimRunner(makeTempFolder);

describe('npm start -- --newest', () => {
  it("shows the greeting and the agent's answers, and asks before runCommand acts", async () => {
    const root = makeTempFolder('root');
    const run = await runSim(['--demo', '--newest'], {}, input => {
      input.write('ping\n');
      void input.waitFor(/^#\d+ lal › pong$/m).then(async () => {
        input.write(`/attach runCommand ${root}\n`);
        await input.waitFor(/lal › I adopted/);
        input.write('please run `echo one > one.txt`\n');
        await input.waitFor(
          /allow it\? y runs it · n refuses it · a runs it and runCommand's later calls without asking/,
        );
        expect(existsSync(join(root, 'one.txt'))).toBe(false);
        input.write('y\n');
        await input.waitFor(/lal › Done: .*exited with code 0/);
        input.end();
      });
    });
    expect(run.stderr).toBe('');
    expect(run.stdout).not.toContain('stopped following');
    expect(run.stdout).toMatch(/^#\d+ lal › Lal agent ready\./m);
    expect(readFileSync(join(root, 'one.txt'), 'utf8')).toBe('one\n');
    expect(run.code).toBe(0);
  });

  it('shows a long answer once, as it ends, not the placeholder nor the drafts of its live-progress reply', async () => {
    const run = await runSim(['--demo', '--newest'], { LAL_PROGRESS_AFTER_MS: '0' }, input => {
      input.write('tell me a long story\n');
      void input.waitFor(/That is all this double has to say/).then(() => input.end());
    });
    expect(run.stderr).toBe('');
    const shown = run.stdout
      .split('\n')
      .filter(line => /^#\d+ lal › Here is a long answer/.test(line));
    expect(shown).toHaveLength(1);
    // Neither the placeholder nor the drafts between (done: false) are shown: whether a turn ran
    // long enough to post one, the screen reads the same.
    expect(run.stdout).not.toMatch(/^#\d+ lal › thinking…$/m);
    expect(run.code).toBe(0);
  });
});

/** The numbers of the agent's lines a run printed (`#5 lal › …`). */
const numbersShown = (stdout: string): number[] =>
  [...stdout.matchAll(/^#(\d+) lal ›/gm)].map(match => Number(match[1]));

describe('npm start with and without --newest, one after the other', () => {
  it('never mixes the two daemons in one state folder: each keeps its HOST and its numbering', async () => {
    const state = { XDG_STATE_HOME: makeTempFolder('state') };
    const ping = (flags: string[]) =>
      runSim(['--demo', ...flags], state, input => {
        input.write('ping\n/status\n');
        input.end();
      });
    const first = await ping([]);
    const newest = await ping(['--newest']);
    const again = await ping([]);
    for (const run of [first, newest, again]) {
      expect(run.stderr).toBe('');
      expect(run.code).toBe(0);
      // Each run's HOST is the HOST its daemon's agent served before, never a stranger.
      expect(run.stdout).not.toContain('another daemon');
    }
    const folderOf = (stdout: string) => /^lal's state is kept in (\S+) /m.exec(stdout)?.[1];
    expect(folderOf(newest.stdout)).toBe(`${folderOf(first.stdout)}-newest`);
    expect(folderOf(again.stdout)).toBe(folderOf(first.stdout));
    // The run without --newest goes on from its own last number, whatever the newest daemon did.
    expect(Math.min(...numbersShown(again.stdout))).toBeGreaterThan(
      Math.max(...numbersShown(first.stdout)),
    );
    expect(again.stdout).toMatch(/^- HOST: 2 turns/m);
  });
});
