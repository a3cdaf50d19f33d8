/**
 * The scripted double's words as a newcomer meets them in `npm start -- --demo`
 * (issue 45; README, "Try it without a model"): a tool attached twice is said
 * to be attached already, not mailed again; "greet Bob" greets Bob, never a
 * word of the message's attachment line; only a story, an essay or a long
 * answer asked for gets the long answer, not any message with "long" in it.
 */
import { describe, expect, it } from 'vitest';
import { makeSimRunner } from './support/run-sim.js';
import { useTempFolders } from './support/temp-folders.js';

const makeTempFolder = useTempFolders();
const runSim = makeSimRunner(makeTempFolder);

describe('npm start -- --demo, in its own words', () => {
  it('says a tool is attached already, greets the name asked, and keeps the long story for a story', async () => {
    const run = await runSim(['--demo', '--fresh'], {}, input => {
      input.write('/attach greet\n');
      void input
        .waitFor(/I adopted greet/)
        .then(() => {
          input.write('/attach greet\n');
          return input.waitFor(/already attached/);
        })
        .then(() => {
          input.write('greet Bob with the greet tool\n');
          return input.waitFor(/Hello, Bob/);
        })
        .then(() => {
          input.write('how long is a piece of string?\n');
          input.end();
        });
    });
    expect(run.stderr).toBe('');
    expect(run.stdout).toContain(
      'greet is already attached: lal holds it as tools/greet; /detach greet first to attach it again',
    );
    // Mailed once: the second /attach sent nothing for the agent to refuse or misread.
    expect(run.stdout.match(/^mailed @greet to lal$/gm)).toHaveLength(1);
    expect(run.stdout).not.toContain('Attached:!');
    expect(run.stdout).toMatch(/› The tool answered: greeting: Hello, Bob!, language: en$/m);
    expect(run.stdout).toMatch(/^#\d+ lal › You said "how long is a piece of string\?"/m);
    expect(run.stdout).not.toContain('Here is a long answer');
  });
});
