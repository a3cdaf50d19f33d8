/**
 * `npm start` run again with eval-proposals still pending (docs/behaviour.md
 * 10.1, 10.2): the daemon double keeps the agent's undismissed mail across
 * runs, as the real daemon keeps an inbox over `endo restart`, so each
 * outcome is told in reply to the message that asked, once, and no model call
 * is spent on a message that vanished. The proposals themselves the f0a46042a
 * daemon cannot reload: never granted, each is told it did not run (NOT RUN),
 * not UNKNOWN, which is for a grant whose outcome was lost; and the double
 * says what happened, not that its host answered (issue 45: nobody did).
 */
import { describe, expect, it } from 'vitest';
import { makeSimRunner } from './support/run-sim.js';
import { useTempFolders } from './support/temp-folders.js';

const makeTempFolder = useTempFolders();
const runSim = makeSimRunner(makeTempFolder);

describe('npm start run again with proposals pending', () => {
  it('tells each outcome in reply to the message that asked, once', async () => {
    const state = { XDG_STATE_HOME: makeTempFolder('state') };
    const first = await runSim(['--demo'], state, input => {
      input.write('what is 6 * 7? Work it out with code.\n');
      input.write('what is 5 * 9? Work it out with code.\n');
      input.end();
    });
    expect(first.stdout).toMatch(/asks to run code \(eval-proposal #\d+\): 5 \* 9/);
    const asked = [...first.stdout.matchAll(/^you › what is/gm)].length;
    expect(asked).toBe(2);
    // Leaving says what a restart of this daemon ends, before it is lost.
    const proposals = [...first.stdout.matchAll(/\(eval-proposal #(\d+)\)/g)].map(m => `#${m[1]}`);
    expect(first.stdout).toContain(
      `left with eval-proposals ${proposals.join(', ')} unanswered: this daemon cannot keep a proposal over a restart, so lal will say at its next start that they were not run (/grant or /reject before /quit answers one)`,
    );

    const second = await runSim(['--demo'], state, input => {
      void input
        .waitFor(/(?:[\s\S]*lal › Nobody answered it, so it did not run — NOT RUN){2}/)
        .then(() => input.end());
    });
    expect(second.stderr).toBe('');
    expect(second.stdout).not.toContain('No such message');
    expect(second.stdout).not.toContain('repeated');
    const told = second.stdout.match(
      /lal › Nobody answered it, so it did not run — NOT RUN: your proposal p\d \(\d \* \d\) was still waiting for the host when I restarted, and the restart ended it: it was not granted/g,
    );
    expect(told).toHaveLength(2);
    expect(second.stdout).not.toContain('UNKNOWN');
    // Each turn is the reply and no more: one model call, the reply ending it.
    expect(second.stdout).toMatch(/(?:[\s\S]*turn over: 1 model call){2}/);
  });

  it("tells the outcome of a proposal made for the HOST's counter-proposal, though a restart ended that message", async () => {
    const state = { XDG_STATE_HOME: makeTempFolder('state') };
    const first = await runSim(['--demo'], state, input => {
      input.write('what is 7 * 7? Work it out with code.\n');
      void input
        .waitFor(/\(eval-proposal #(\d+)\): 7 \* 7/)
        .then(([, number]) => {
          // Code that is not arithmetic, which the double proposes (arithmetic it works out itself).
          input.write(`/counter ${number} Math.max(7, 15)\n`);
          return input.waitFor(/\(eval-proposal #\d+\): Math\.max\(7, 15\)/);
        })
        .then(() => input.end());
    });
    expect(first.stdout).toMatch(/sent a counter-proposal for #\d+/);

    const second = await runSim(['--demo'], state, input => {
      void input
        .waitFor(
          /lal › Nobody answered it, so it did not run — NOT RUN: your proposal p2 [^\n]*\n[^\n]*turn over/,
        )
        .then(() => input.end());
    });
    expect(second.stdout).not.toContain('No such message');
    expect(second.stdout).not.toContain('repeated');
    expect(
      second.stdout.match(
        /lal › Nobody answered it, so it did not run — NOT RUN: your proposal p2 \(Math\.max\(7, 15\)\)/g,
      ),
    ).toHaveLength(1);
    expect(second.stdout).toMatch(/NOT RUN: your proposal p2[^\n]*\n {2}· turn over: 1 model call/);
  });

  it('/counter answers the proposal it counters: not left pending, not told NOT RUN later; leaving names what waits', async () => {
    const state = { XDG_STATE_HOME: makeTempFolder('state') };
    let countered = '';
    let proposed = '';
    const first = await runSim(['--demo'], state, input => {
      input.write('what is 5 * 5?\n');
      void input
        .waitFor(/\(eval-proposal #(\d+)\): 5 \* 5/)
        .then(([, number]) => {
          countered = number!;
          input.write(`/counter ${number} 5 ** 2 + 1\n`);
          return input.waitFor(/\(eval-proposal #(\d+)\): 5 \*\* 2 \+ 1/);
        })
        .then(([, number]) => {
          proposed = number!;
        })
        .finally(() => input.end());
    });
    expect(first.stderr).toBe('');
    expect(first.stdout).toContain(`sent a counter-proposal for #${countered}, which answers it`);
    // The agent hears its first proposal was answered, and tells whoever asked.
    expect(first.stdout).toMatch(/lal › [^\n]*REJECTED: [^\n]*p1 \(5 \* 5\)[^\n]*Countered/);
    expect(first.stdout).toContain(
      `left with eval-proposal #${proposed} unanswered: this daemon cannot keep a proposal over a restart, so lal will say at its next start that it was not run`,
    );

    const second = await runSim(['--demo'], state, input => {
      void input
        .waitFor(
          /lal › Nobody answered it, so it did not run — NOT RUN: your proposal p2 [^\n]*\n[^\n]*turn over/,
        )
        .then(() => input.end());
    });
    expect(second.stderr).toBe('');
    expect(second.stdout).toMatch(/NOT RUN: your proposal p2 \(5 \*\* 2 \+ 1\)/);
    expect(second.stdout).not.toMatch(/proposal p1\b/);
  });
});
