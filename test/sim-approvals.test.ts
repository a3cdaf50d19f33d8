/**
 * Asking before a tool acts in `npm start` (README, "What runs without
 * asking you"): the person is the HOST, whom the daemon trusts, yet a
 * side-effecting tool's call waits for their answer (y, n, or a for always),
 * through the agent's own approval path (LAL_TOOLS_CONFIRM); "always" is
 * kept in the state folder and /status names it; `--yes` runs it unasked.
 * runCommand runs in bubblewrap, as the sandbox tests need.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { stripVTControlCharacters } from 'node:util';
import { makeSimRunner } from './support/run-sim.js';
import { runSimOnTty } from './support/run-sim-tty.js';
import { useTempFolders } from './support/temp-folders.js';

const makeTempFolder = useTempFolders();
const runSim = makeSimRunner(makeTempFolder);

describe('npm start asks before a side-effecting tool acts', () => {
  it('asks y/n/a; y runs the call once, n refuses it, a keeps runCommand allowed across runs', async () => {
    const state = { XDG_STATE_HOME: makeTempFolder('state') };
    const root = makeTempFolder('root');
    const first = await runSim(['--demo', '--persona', 'fae'], state, input => {
      input.write(`/attach runCommand ${root}\n`);
      void input.waitFor(/I adopted/).then(async () => {
        input.write('please run `echo one > one.txt`\n');
        await input.waitFor(
          /allow it\? y runs it · n refuses it · a runs it and runCommand's later calls without asking/,
        );
        // Nothing ran before the answer.
        expect(existsSync(join(root, 'one.txt'))).toBe(false);
        input.write('y\n');
        await input.waitFor(/fae › Done: .*exited with code 0/);
        input.write('please run `echo two > two.txt`\n');
        await input.waitFor(/(?:[\s\S]*allow it\?){2}/);
        input.write('n\n');
        await input.waitFor(/fae › My host answered: REFUSED/);
        input.write('please run `echo three > three.txt`\n');
        await input.waitFor(/(?:[\s\S]*allow it\?){3}/);
        input.write('a\n');
        await input.waitFor(/(?:[\s\S]*fae › Done: ){2}/);
        input.end();
      });
    });
    expect(first.stderr).toBe('');
    expect(first.code).toBe(0);
    expect(readFileSync(join(root, 'one.txt'), 'utf8')).toBe('one\n');
    expect(existsSync(join(root, 'two.txt'))).toBe(false);
    expect(readFileSync(join(root, 'three.txt'), 'utf8')).toBe('three\n');
    expect(first.stdout).toMatch(/^approved #\d+; runCommand runs without asking from now on/m);

    // The next run remembers "always" (and has runCommand back): /status says so, and a call runs unasked.
    const second = await runSim(['--demo', '--persona', 'fae'], state, input => {
      input.write('/status\n');
      input.write('please run `echo four > four.txt`\n');
      void input.waitFor(/fae › (?:Done|The tool answered): /).then(() => input.end());
    });
    expect(second.stderr).toBe('');
    expect(second.stdout).toMatch(
      /^Always allowed \(your answers, kept in .*approvals\.json\): runCommand$/m,
    );
    expect(second.stdout).not.toContain('allow it?');
    expect(readFileSync(join(root, 'four.txt'), 'utf8')).toBe('four\n');
  });

  it('--yes lets runCommand act unasked, as the daemon does for its HOST', async () => {
    const root = makeTempFolder('root');
    const run = await runSim(['--demo', '--persona', 'fae', '--yes'], {}, input => {
      input.write(`/attach runCommand ${root}\n`);
      void input.waitFor(/I adopted/).then(async () => {
        input.write('please run `echo yes > yes.txt`\n');
        await input.waitFor(/fae › The tool answered: /);
        input.write('/status\n');
        input.end();
      });
    });
    expect(run.stderr).toBe('');
    expect(run.stdout).not.toContain('allow it?');
    expect(run.stdout).not.toContain('LAL_TOOLS_CONFIRM');
    expect(readFileSync(join(root, 'yes.txt'), 'utf8')).toBe('yes\n');
  });
});

describe('an answer to a tool call waiting for approval is a whole line', () => {
  it('on a terminal, a line that merely starts with y or a is a message: nothing is approved, no letter lost', async () => {
    const root = makeTempFolder('root');
    writeFileSync(join(root, 'b.txt'), 'keep me\n');
    const output = await runSimOnTty(
      ['--demo', '--fresh', '--persona', 'fae'],
      { XDG_STATE_HOME: makeTempFolder('state') },
      [
        { after: /agent ready/, keys: `/attach runCommand ${root}\r` },
        { after: /I adopted/, keys: 'please run `rm b.txt`\r' },
        // The newcomer's trial (issue 45): typing a message while the approval waits.
        { after: /allow it\?/, keys: 'yesterday you said something, what was it?\r' },
        {
          after: /still waits/,
          before: async () => {
            // Not approved by the line's first letter: the file is there.
            expect(existsSync(join(root, 'b.txt'))).toBe(true);
          },
          keys: 'any news?\r',
        },
        // Said once: the second message is a message too, and b.txt is still there.
        {
          after: /any news\?/,
          before: async () => {
            expect(existsSync(join(root, 'b.txt'))).toBe(true);
          },
          keys: 'n\r',
        },
        { after: /You said "any news\?"/, keys: '/quit\r' },
      ],
      makeTempFolder('cwd'),
    );
    const screen = stripVTControlCharacters(output);
    expect(screen).toMatch(/refused #\d+/);
    expect(screen).not.toMatch(/approved #\d+/);
    expect(screen).toMatch(/fae › You said "yesterday you said something, what was it\?"/);
    expect(screen.match(/still waits/g)).toHaveLength(1);
    expect(readFileSync(join(root, 'b.txt'), 'utf8')).toBe('keep me\n');
  });

  it('piped, the same: a line starting with a is a message and never "always"', async () => {
    const state = { XDG_STATE_HOME: makeTempFolder('state') };
    const root = makeTempFolder('root');
    const run = await runSim(['--demo', '--persona', 'fae'], state, input => {
      input.write(`/attach runCommand ${root}\n`);
      void input.waitFor(/I adopted/).then(async () => {
        input.write('please run `echo one > one.txt`\n');
        await input.waitFor(/allow it\?/);
        input.write('anything new?\n');
        await input.waitFor(/still waits/);
        expect(existsSync(join(root, 'one.txt'))).toBe(false);
        input.write(' Yes \n');
        await input.waitFor(/You said "anything new\?"/);
        input.end();
      });
    });
    expect(run.stderr).toBe('');
    expect(run.stdout).toMatch(/^approved #\d+$/m);
    expect(run.stdout).not.toContain('runs without asking from now on');
    expect(readFileSync(join(root, 'one.txt'), 'utf8')).toBe('one\n');
    expect(existsSync(join(state.XDG_STATE_HOME, 'lal-fae', 'fae-demo', 'approvals.json'))).toBe(
      false,
    );
  });
});

describe('y, n or a typed when nothing waits for an answer', () => {
  it('is not mailed: the person hears that nothing waits; a word (yes) is a message', async () => {
    const run = await runSim(['--demo'], {}, input => {
      input.write('y\nN\na\nyes\nwhat is 6 * 7?\ny\n');
      input.end();
    });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const nothing = run.stdout.match(/^Nothing is waiting for your answer: .*$/gm) ?? [];
    expect(nothing).toHaveLength(3);
    expect(nothing[0]).toContain('write the word (yes, no) to say it to lal');
    expect(run.stdout).not.toMatch(/You said "[yna]"/i);
    // The agent heard only the word.
    expect(run.stdout).toMatch(/^#\d+ lal › You said "yes"/m);
    // While an eval-proposal waits, the letter names it and the commands that answer it.
    expect(run.stdout).toMatch(
      /^No tool call is waiting for approval \(y, n and a answer those\); eval-proposal #(\d+) waits for \/grant \1 or \/reject \1;/m,
    );
    expect(run.stdout.match(/turn over/g)).toHaveLength(2);
  });
});
