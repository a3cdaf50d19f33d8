/**
 * `npm start` left with a request still waiting for the person's answer
 * (docs/behaviour.md 3.10, 10.1): the daemon double keeps the HOST's inbox
 * and the promise behind each request across runs, as the real daemon keeps
 * them over `endo restart`, so after `/quit` and a new run the approval
 * request is shown again, the person answers it then, and the call runs (or
 * is refused). It used to be told as "UNKNOWN: I restarted while waiting …
 * the request is no longer in my inbox".
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeSimRunner, type Run } from './support/run-sim.js';
import { useTempFolders } from './support/temp-folders.js';

const makeTempFolder = useTempFolders();
const runSim = makeSimRunner(makeTempFolder);

const ASKED =
  /allow it\? y runs it · n refuses it · a runs it and runCommand's later calls without asking/;

/** A first run that asks to run `command` and quits before the answer. */
const askThenQuit = async (state: Record<string, string>, root: string, command: string) => {
  const first = await runSim(['--demo', '--fresh', '--persona', 'fae'], state, input => {
    input.write(`/attach runCommand ${root}\n`);
    void input.waitFor(/I adopted/).then(async () => {
      input.write(`please run \`${command}\`\n`);
      await input.waitFor(ASKED);
      input.write('/quit\n');
      input.end();
    });
  });
  expect(first.stderr).toBe('');
  return first;
};

const noLoss = (run: Run) => {
  expect(run.stderr).toBe('');
  expect(run.stdout).not.toContain('UNKNOWN');
  expect(run.stdout).not.toContain('no longer in my inbox');
};

describe('npm start run again with an approval request waiting', () => {
  it('shows the request again; a yes then runs the call', async () => {
    const state = { XDG_STATE_HOME: makeTempFolder('state') };
    const root = makeTempFolder('root');
    await askThenQuit(state, root, 'echo one > one.txt');
    expect(existsSync(join(root, 'one.txt'))).toBe(false);

    const second = await runSim(['--demo', '--persona', 'fae'], state, input => {
      void input.waitFor(ASKED).then(async () => {
        // Nothing ran before the answer.
        expect(existsSync(join(root, 'one.txt'))).toBe(false);
        input.write('y\n');
        await input.waitFor(/fae › (?:Done|The tool answered): .*exited with code 0/);
        input.end();
      });
    });
    noLoss(second);
    expect(readFileSync(join(root, 'one.txt'), 'utf8')).toBe('one\n');
  });

  it('shows the request again; a no then refuses it', async () => {
    const state = { XDG_STATE_HOME: makeTempFolder('state') };
    const root = makeTempFolder('root');
    await askThenQuit(state, root, 'echo two > two.txt');

    const second = await runSim(['--demo', '--persona', 'fae'], state, input => {
      void input.waitFor(ASKED).then(async () => {
        input.write('n\n');
        await input.waitFor(/fae › My host answered: REFUSED/);
        input.end();
      });
    });
    noLoss(second);
    expect(existsSync(join(root, 'two.txt'))).toBe(false);
  });
});
