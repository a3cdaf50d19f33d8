/**
 * `npm start -- --newest` does what the plain simulator does (README,
 * "Commands"; docs/behaviour.md 10.5), in the newest daemon's way (docs/daemon-api.md, "The newest
 * generation"): senders are `endo://…?type=handle` locators, so /inbox names
 * them as the plain run does; code is a request the agent puts to @host
 * (docs/daemon-guide.md, "Which daemons"), which the person sees with the
 * code and answers with /grant, /reject or /counter; /status says one thing
 * about code; and an agent's answer in a channel shows as it comes, as a
 * reply does.
 */
import { describe, expect, it } from 'vitest';
import { makeSimRunner } from './support/run-sim.js';
import { useTempFolders } from './support/temp-folders.js';

const makeTempFolder = useTempFolders();
const runSim = makeSimRunner(makeTempFolder);

describe('npm start -- --newest, as the plain simulator', () => {
  it('/inbox names each sender (a locator in this daemon), as the plain run does', async () => {
    const run = await runSim(['--demo', '--newest'], {}, input => {
      input.write('ping\n');
      void input.waitFor(/^#\d+ lal › pong$/m).then(() => {
        input.write('/inbox\n');
        input.end();
      });
    });
    expect(run.stderr).toBe('');
    expect(run.stdout).not.toContain('Invalid formula identifier');
    const inbox = run.stdout.slice(run.stdout.indexOf('you › /inbox'));
    expect(inbox).toMatch(/^#\d+ lal: pong$/m);
    expect(inbox).toMatch(/^#\d+ lal: Lal agent ready\./m);
    expect(run.code).toBe(0);
  });

  it('shows the code the agent asks to run; /grant runs it and the agent tells the result', async () => {
    const run = await runSim(['--demo', '--newest'], {}, input => {
      input.write('what is 6 * 7?\n');
      void input.waitFor(/asks to run code \(request #(\d+)\):/).then(found => {
        input.write(`/inbox\n/grant ${found[1]}\n/status\n`);
        input.end();
      });
    });
    expect(run.stderr).toBe('');
    // The code is shown with the request, and what to type; nothing says the simulator cannot answer.
    expect(run.stdout).toMatch(
      /^#(\d+) lal asks to run code \(request #\1\): 6 \* 7\n {2}endowments: none · result: answer\n {2}answer with \/grant \1 · \/reject \1 \[reason\] · \/counter \1 <source> \(or by lal's id for it, p\d+\)$/m,
    );
    expect(run.stdout).not.toContain('cannot answer requests');
    // /inbox says what each of the two messages is, as it names an eval-proposal in the plain run.
    expect(run.stdout).toMatch(/^#\d+ lal: the code it asks to run: 6 \* 7$/m);
    expect(run.stdout).toMatch(
      /^#\d+ lal \(p\d+\): asks to run code \(endowments: none; result: answer\)$/m,
    );
    expect(run.stdout).toMatch(/^granted #\d+: lal runs the code now$/m);
    expect(run.stdout).toMatch(/^#\d+ lal › It is 42\.$/m);
    // /status says one thing about code: the agent asks @host first; nothing says it runs unasked.
    const status = run.stdout.slice(run.stdout.indexOf('you › /status'));
    expect(status).toMatch(/^- code: evaluate asks @host first/m);
    expect(status).not.toMatch(/without approval|without asking/);
    expect(run.code).toBe(0);
  });

  it('/reject and /counter refuse the code, and the agent hears the reason', async () => {
    const run = await runSim(['--demo', '--newest'], {}, input => {
      input.write('what is 6 * 7?\n');
      void input
        .waitFor(/asks to run code \(request #(\d+)\):/)
        .then(async found => {
          input.write(`/reject ${found[1]} not today\n`);
          await input.waitFor(/lal › My host answered: REJECTED/);
          input.write('what is 2 + 3?\n');
          return input.waitFor(/asks to run code \(request #(\d+)\): 2 \+ 3/);
        })
        .then(found => {
          input.write(`/counter ${found[1]} Math.max(2, 4)\n`);
          input.end();
        });
    });
    expect(run.stderr).toBe('');
    expect(run.stdout).toMatch(/^rejected #\d+: not today$/m);
    expect(run.stdout).toMatch(/^#\d+ lal › My host answered: REJECTED[^\n]*not today/m);
    expect(run.stdout).toMatch(
      /^sent a counter-proposal for #\d+ \(this daemon has none: the request is refused with your code as the reason/m,
    );
    // The agent is told the code its host would run, and asks to run that (code that is not
    // arithmetic: the double works arithmetic out itself, sim/model-server/demo-model.ts).
    expect(run.stdout).toMatch(/^#(\d+) lal asks to run code \(request #\1\): Math\.max\(2, 4\)$/m);
    expect(run.code).toBe(0);
  });

  it("shows the agent's answer in a channel as it comes, without /channel show", async () => {
    // No live-progress placeholder however long the turn takes on a loaded machine (the next
    // test shows one): the answer alone, once.
    const run = await runSim(['--demo', '--newest'], { LAL_PROGRESS_AFTER_MS: '600000' }, input => {
      // Piped, the input ends at once: the run waits for the answer the mention is owed.
      input.write('/channel new room\n/channel post room as bob ping @lal\n');
      input.end();
    });
    expect(run.stderr).toBe('');
    expect(run.stdout).toMatch(/^#\d+ lal in room \(re #0\) › pong/m);
    // Said which turn it is, as a wake-up's or a helper's turn is, and shown once.
    expect(run.stdout).toMatch(/^ {2}◦ answering in channel "room": #0 from "bob"$/m);
    expect(run.stdout.match(/ lal in room /g)).toHaveLength(1);
    // The person's own posts are not shown back as someone else's.
    expect(run.stdout).not.toMatch(/bob in room|you in room/);
    expect(run.code).toBe(0);
  });

  it('shows a long answer in a channel once, as it ends, not the drafts of its live progress', async () => {
    const run = await runSim(['--demo', '--newest'], { LAL_PROGRESS_AFTER_MS: '0' }, input => {
      input.write('/channel new room\n/channel post room as bob tell me a long story @lal\n');
      void input
        .waitFor(/That is all this double has to say[^\n]*\n[^\n]*turn over/)
        .then(() => input.end());
    });
    expect(run.stderr).toBe('');
    // The placeholder, then the answer under the same number, above its turn's "turn over" line.
    const shown = run.stdout.split('\n').filter(line => / lal in room /.test(line));
    expect(shown).toEqual([
      expect.stringMatching(/^#(\d+) lal in room \(re #0\) › Thinking…$/),
      expect.stringMatching(/^#\d+ lal in room \(re #0\) › Here is a long answer/),
    ]);
    expect(shown[1]!.split(' ')[0]).toBe(shown[0]!.split(' ')[0]);
    expect(run.code).toBe(0);
  });
});
