/**
 * Asking before a tool acts in `npm start` (README, "What runs without
 * asking you"): the person is the HOST, whom the daemon trusts, yet a
 * side-effecting tool's call waits for their answer (y, n, or a for always),
 * through the agent's own approval path (LAL_TOOLS_CONFIRM); "always" is
 * kept in the state folder and /status names it; `--yes` runs it unasked.
 * runCommand runs in bubblewrap, as the sandbox tests need.
 */
import { existsSync, readFileSync } from 'node:fs';
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
        await input.waitFor(/allow it\? y \(yes\) · n \(no\) · a \(always for runCommand\)/);
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

describe('on a terminal, y, n or a is one key', () => {
  it('answers the call waiting for approval at once, with no Enter; the keys after it are a line as usual', async () => {
    const root = makeTempFolder('root');
    const output = await runSimOnTty(
      ['--demo', '--fresh'],
      { XDG_STATE_HOME: makeTempFolder('state') },
      [
        { after: /agent ready/, keys: `/attach runCommand ${root}\r` },
        { after: /I adopted/, keys: 'please run `echo one > one.txt`\r' },
        // y and the next line typed in one go: y answers alone, "ping" is the line after it.
        { after: /allow it\?/, keys: 'yping\r' },
        // Left once both are answered, in either order (tool lines carry no colour within): ping,
        // and the command's outcome; or at once when "yping" went to the agent as one line.
        {
          after: /"Done: [\s\S]*?"pong"|"pong"[\s\S]*?"Done: |You said "yping"/,
          keys: '/quit\r',
        },
      ],
      makeTempFolder('cwd'),
    );
    const screen = stripVTControlCharacters(output);
    expect(screen).toMatch(/approved #\d+/);
    expect(screen).toMatch(/lal › pong/);
    expect(screen).not.toMatch(/You said "yping"/);
    expect(readFileSync(join(root, 'one.txt'), 'utf8')).toBe('one\n');
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
