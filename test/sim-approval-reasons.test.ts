/**
 * What an approval request in `npm start` says and when one is made
 * (README, "What runs without asking you"; docs/behaviour.md 10.4): the
 * reason names what really made the call ask (here npm start's own default,
 * never a LAL_TOOLS_APPROVE nobody set), and after "a" (always for this
 * tool) the next call of that tool in the same run acts without asking,
 * not through the approval path answered behind the person's back.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeSimRunner } from './support/run-sim.js';
import { useTempFolders } from './support/temp-folders.js';

const makeTempFolder = useTempFolders();
const runSim = makeSimRunner(makeTempFolder);

describe('npm start: why a call asks, and "always" in the same run', () => {
  it('names the default as the reason, and after "a" the next call runs unasked', async () => {
    const root = makeTempFolder('root');
    const run = await runSim(['--demo', '--persona', 'fae'], {}, input => {
      input.write(`/attach runCommand ${root}\n`);
      void input.waitFor(/I adopted/).then(async () => {
        input.write('please run `echo one > one.txt`\n');
        await input.waitFor(/allow it\? y runs it/);
        input.write('y\n');
        await input.waitFor(/fae › Done: /);
        // The second call's turn has read the first one's result (its history): still asked by the default.
        input.write('please run `echo two > two.txt`\n');
        await input.waitFor(/(?:[\s\S]*allow it\?){2}/);
        input.write('a\n');
        await input.waitFor(/(?:[\s\S]*fae › Done: ){2}/);
        input.write('please run `echo three > three.txt`\n');
        // Whichever way it goes (asked or not), the third call's answer ends the script.
        await input.waitFor(/please run `echo three[\s\S]*fae › (?:Done|The tool answered): /);
        input.end();
      });
    });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    // Nobody set LAL_TOOLS_APPROVE (nor LAL_TOOLS_CONFIRM): neither is named as what asks.
    expect(run.stdout).not.toContain('LAL_TOOLS_APPROVE');
    const reasons = [...run.stdout.matchAll(/asked because ([^\n]*)/g)].map(found => found[1]);
    expect(reasons).toHaveLength(2);
    for (const reason of reasons)
      expect(reason).toMatch(/^npm start asks before runCommand, .*\(npm start --yes would not/);
    // After "always": the third call acted at once, with no request and no approval behind the person's back.
    expect(run.stdout.match(/allow it\?/g)).toHaveLength(2);
    expect(run.stdout).not.toContain('you said always');
    expect(run.stdout).toMatch(/fae › The tool answered: /);
    expect(readFileSync(join(root, 'three.txt'), 'utf8')).toBe('three\n');
  });
});
