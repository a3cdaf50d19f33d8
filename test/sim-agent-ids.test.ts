/**
 * One name a person can use for what waits for their answer in `npm start`
 * (docs/behaviour.md 10.4): the number the terminal shows (#4) or the agent's
 * own id for it (a2, p1), which its words, notices and /status use; /grant,
 * /reject, /counter and /dismiss take either, and /inbox and /status show both.
 */
import { describe, expect, it } from 'vitest';
import { parseCommand } from '../sim/chat/commands.js';
import { makeSimRunner } from './support/run-sim.js';
import { useTempFolders } from './support/temp-folders.js';

const makeTempFolder = useTempFolders();
const runSim = makeSimRunner(makeTempFolder);

describe('the answer commands read a number or the agent’s id', () => {
  it('parses #4, 4, a2 and P1, and says what n may be when it is none of them', () => {
    expect(parseCommand('/grant a2')).toEqual({ kind: 'grant', number: 'a2' });
    expect(parseCommand('/grant #15')).toEqual({ kind: 'grant', number: 15n });
    expect(parseCommand('/reject P1 not now')).toEqual({
      kind: 'reject',
      number: 'p1',
      reason: 'not now',
    });
    expect(parseCommand('/counter p3 6 * 6')).toEqual({
      kind: 'counter',
      number: 'p3',
      source: '6 * 6',
    });
    expect(parseCommand('/dismiss #7')).toEqual({ kind: 'dismiss', number: 7n });
    expect(parseCommand('/grant x2')).toMatchObject({
      kind: 'error',
      error: expect.stringContaining("the agent's id (p1, a2)"),
    });
    // A reason that starts like an id is still the reason when no n comes first.
    expect(parseCommand('/reject apple pie')).toEqual({
      kind: 'reject',
      number: undefined,
      reason: 'apple pie',
    });
  });
});

describe('npm start: the agent’s id names what waits', () => {
  it('f0a46042a: /inbox and /status show the proposal as #n and p1, and /grant p1 grants it', async () => {
    const run = await runSim(['--demo', '--fresh'], {}, input => {
      input.write('what is 6 * 7? Use code.\n');
      void input.waitFor(/eval-proposal #(\d+)\):/).then(async () => {
        await input.waitFor(/turn over/);
        input.write('/inbox\n/status\n/grant p9\n/grant p1\n');
        await input.waitFor(/lal › It is 42\./);
        input.end();
      });
    });
    expect(run.stderr).toBe('');
    const number = /eval-proposal #(\d+)\):/.exec(run.stdout)![1]!;
    expect(run.stdout).toContain(`#${number} lal (p1): asks to run code: 6 * 7`);
    expect(run.stdout).toMatch(
      new RegExp(`^Waiting for your answer: #${number} \\(p1\\); /grant or /reject takes`, 'm'),
    );
    expect(run.stdout).toMatch(/^p9 is not waiting for your answer; \/inbox lists what waits/m);
    expect(run.stdout).toContain(`granted #${number} → 42`);
  });

  it('newest: a request to run code and a tool call’s approval show their ids, and take them', async () => {
    const root = makeTempFolder('root');
    const run = await runSim(['--demo', '--fresh', '--newest'], {}, input => {
      input.write(`/attach runCommand ${root}\n`);
      void input.waitFor(/I adopted/).then(async () => {
        input.write('please run `echo one > one.txt`\n');
        const approval = await input.waitFor(
          /\(approval request #(\d+)\):[\s\S]*?\(or by lal's id for it, (a\d+)\)/,
        );
        input.write(`/reject ${approval[2]} not this one\n`);
        await input.waitFor(/lal › My host answered: REFUSED/);
        input.write('what is 6 * 7? Use code.\n');
        const code = await input.waitFor(
          /asks to run code \(request #(\d+)\):[\s\S]*?\(or by lal's id for it, (p\d+)\)/,
        );
        input.write(`/grant ${code[2]}\n`);
        await input.waitFor(/lal › It is 42\./);
        input.end();
      });
    });
    expect(run.stderr).toBe('');
    expect(run.stdout).toMatch(/^rejected #\d+: not this one$/m);
    expect(run.stdout).toMatch(/^granted #\d+: lal runs the code now$/m);
  });
});
