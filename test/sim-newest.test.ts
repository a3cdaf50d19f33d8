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
        await input.waitFor(/allow it\? y \(yes\) · n \(no\) · a \(always for runCommand\)/);
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

  it('shows a long answer once, as it ends, not the drafts of its live-progress reply', async () => {
    const run = await runSim(['--demo', '--newest'], { LAL_PROGRESS_AFTER_MS: '0' }, input => {
      input.write('tell me a long story\n');
      void input.waitFor(/That is all this double has to say/).then(() => input.end());
    });
    expect(run.stderr).toBe('');
    const shown = run.stdout
      .split('\n')
      .filter(line => /^#\d+ lal › Here is a long answer/.test(line));
    expect(shown).toHaveLength(1);
    // The drafts between (done: false) are not shown; the answer keeps the placeholder's number.
    const number = /^#(\d+) lal › thinking…$/m.exec(run.stdout)?.[1];
    expect(shown[0]).toMatch(new RegExp(`^#${number} lal › `));
    expect(run.code).toBe(0);
  });
});
