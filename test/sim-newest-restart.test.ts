/**
 * `npm start -- --newest` run again on the same state folder is the same daemon (docs/behaviour.md
 * 10.1, 10.5): a request to run code still waiting keeps its code (the message that showed it is
 * kept with the request), so it is shown whole again and /grant, /reject and /counter work on it
 * as before the restart; and the words of the answer reach the agent, which was made again since
 * it asked (its own copy of the request keeps only how it was settled).
 */
import { describe, expect, it } from 'vitest';
import { makeSimRunner } from './support/run-sim.js';
import { useTempFolders } from './support/temp-folders.js';

const makeTempFolder = useTempFolders();
const runSim = makeSimRunner(makeTempFolder);

const ASKED = /^#(\d+) lal asks to run code \(request #\1\):/m;

/** A first run in which the agent asks to run code, left before the answer. */
const askThenQuit = async (state: Record<string, string>) => {
  const first = await runSim(['--demo', '--newest'], state, input => {
    input.write('what is 6 * 7?\n');
    void input.waitFor(ASKED).then(() => {
      input.write('/quit\n');
      input.end();
    });
  });
  expect(first.stderr).toBe('');
  return Number(ASKED.exec(first.stdout)?.[1]);
};

/** The request asked and left in a first run, then answered with `answer` in a second. */
const answerAfterRestart = async (answer: (number: number) => string) => {
  const state = { XDG_STATE_HOME: makeTempFolder('state') };
  const number = await askThenQuit(state);
  const second = await runSim(['--demo', '--newest'], state, input => {
    void input.waitFor(ASKED).then(() => {
      input.write(`${answer(number)}\n`);
      input.end();
    });
  });
  expect(second.stderr).toBe('');
  expect(second.code).toBe(0);
  return { number, second };
};

describe('npm start -- --newest run again with a request to run code waiting', () => {
  it('shows its code again, in /inbox too; /counter reaches the agent, which asks to run that', async () => {
    const state = { XDG_STATE_HOME: makeTempFolder('state') };
    const number = await askThenQuit(state);
    const second = await runSim(['--demo', '--newest'], state, input => {
      void input.waitFor(ASKED).then(async () => {
        // Code that is not arithmetic, which the double proposes (arithmetic it works out itself).
        input.write(`/inbox\n/counter ${number} Math.max(2, 4)\n`);
        await input.waitFor(/asks to run code \(request #(\d+)\): Math\.max\(2, 4\)/);
        input.end();
      });
    });
    expect(second.stderr).toBe('');
    expect(second.stdout).toContain(
      `#${number} lal asks to run code (request #${number}): 6 * 7\n  endowments: none · result: answer`,
    );
    const inbox = second.stdout.slice(second.stdout.indexOf('you › /inbox'));
    expect(inbox).toMatch(/^#\d+ lal: the code it asks to run: 6 \* 7$/m);
    expect(second.stdout).toMatch(
      /^#(\d+) lal asks to run code \(request #\1\): Math\.max\(2, 4\)$/m,
    );
    expect(second.code).toBe(0);
  });

  it('/grant runs the code, and the agent tells the result', async () => {
    const { number, second } = await answerAfterRestart(n => `/grant ${n}`);
    expect(second.stdout).toContain(`#${number} lal asks to run code (request #${number}): 6 * 7`);
    expect(second.stdout).toMatch(/^granted #\d+: lal runs the code now$/m);
    expect(second.stdout).toMatch(/lal › [^\n]*\b42\b/);
  });

  it('/reject with a reason: the agent hears the reason', async () => {
    const { second } = await answerAfterRestart(n => `/reject ${n} not-today-5521`);
    expect(second.stdout).toMatch(/^rejected #\d+: not-today-5521$/m);
    expect(second.stdout).toMatch(/lal › Understood: you refused it \(not-today-5521\)/);
  });
});

describe('npm start -- --newest run again after a channel was used', () => {
  it('keeps the channel, its members and posts; the agent follows it still and answers there', async () => {
    const state = { XDG_STATE_HOME: makeTempFolder('state') };
    const first = await runSim(['--demo', '--newest'], state, input => {
      // Piped, the run waits for the answer the mention is owed before it ends.
      input.write('/channel new room\n/channel post room as bob ping @lal\n');
      input.end();
    });
    expect(first.stderr).toBe('');
    expect(first.stdout).toMatch(/^#\d+ lal in room \(re #0\) › pong/m);

    const second = await runSim(['--demo', '--newest'], state, input => {
      input.write('/channel show room\n/channel post room as bob ping again @lal\n');
      input.end();
    });
    expect(second.stderr).toBe('');
    const shown = second.stdout.slice(second.stdout.indexOf('you › /channel show room'));
    expect(shown).toMatch(/^#0 bob: ping @lal\n#1 lal \(re #0\): pong/m);
    // bob joins again under the name he was invited by, and the agent, following still, answers.
    expect(second.stdout).toMatch(/^#\d+ lal in room \(re #2\) › pong: ping again @lal/m);
    expect(second.code).toBe(0);
  });
});
