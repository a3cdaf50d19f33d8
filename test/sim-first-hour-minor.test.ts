/**
 * Five small findings of a newcomer's first hour at `npm start` (issue 45), piped as a script
 * runs it (docs/behaviour.md 10.2, 10.3): the simulator's words name its own commands; `exit`
 * typed alone is answered here, not mailed; messages are shown in the order of their numbers;
 * leaving with an approval request waiting says so; and `--yes` answers a request kept from an
 * earlier run, so /status never says both "every tool allowed" and "waiting for your answer".
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeSimRunner } from './support/run-sim.js';
import { useTempFolders } from './support/temp-folders.js';

const makeTempFolder = useTempFolders();
const runSim = makeSimRunner(makeTempFolder);

describe("the simulator's own words", () => {
  it('name /schedules, answer a lone exit here, and show messages in the order of their numbers', async () => {
    const run = await runSim(['--demo'], {}, input => {
      input.write('/schedules pause\n');
      input.write('exit\n');
      input.write('QUIT\n');
      input.write('what is 6 * 7? Work it out with code.\n');
      input.end();
    });
    expect(run.code).toBe(0);
    // The simulator's way to list them, not the daemon's schedules().
    expect(run.stdout).toContain('list them with /schedules');
    expect(run.stdout).not.toContain('schedules()');
    // `exit` and `quit` alone are not mailed: a hint, and no turn for them.
    const hint = '/quit or Ctrl-D leaves; //exit sends "exit" to lal';
    expect(run.stdout).toContain(`you › exit\n${hint}\n`);
    expect(run.stdout).toContain(
      `you › QUIT\n${'/quit or Ctrl-D leaves; //QUIT sends "QUIT" to lal'}\n`,
    );
    expect(run.stdout.match(/lal is thinking/g)).toHaveLength(1);
    // The request to run code (#2) before the words that follow it (#3).
    const numbers = [...run.stdout.matchAll(/^#(\d+) lal /gm)].map(match => Number(match[1]));
    expect(numbers).toContain(2);
    expect(numbers).toContain(3);
    expect(numbers).toEqual([...numbers].sort((a, b) => a - b));
  });
});

describe('an approval request left waiting', () => {
  it('is said when leaving, and answered by --yes at the next start', async () => {
    const state = { XDG_STATE_HOME: makeTempFolder('state') };
    const cwd = makeTempFolder('cwd');
    const first = await runSim(
      ['--demo', '--persona', 'fae'],
      state,
      input => {
        input.write(`/attach runCommand ${cwd}\n`);
        input.write('run `touch e.txt`\n');
        input.end();
      },
      cwd,
    );
    expect(first.code).toBe(0);
    const asked = /#(\d+) fae asks to call a tool \(approval request #\d+\)/.exec(first.stdout);
    expect(asked).not.toBeNull();
    const number = asked![1]!;
    expect(first.stdout).toContain(
      `left with approval request #${number} unanswered: it is kept, so fae asks again at the next start. ` +
        "Then y runs the call, n refuses it, a runs it and that tool's later calls without asking; " +
        `/grant ${number} and /reject ${number} answer it too; /quit leaves it waiting, as now.`,
    );
    expect(existsSync(join(cwd, 'e.txt'))).toBe(false);

    const second = await runSim(
      ['--demo', '--persona', 'fae', '--yes'],
      state,
      input => {
        void input.waitFor(/ran `touch e\.txt`|touch e\.txt[^\n]*✓/).then(() => {
          input.write('/status\n');
          input.end();
        });
      },
      cwd,
    );
    expect(second.code).toBe(0);
    expect(second.stdout).toContain(`#${number} fae calls runCommand: allowed (by --yes)`);
    expect(second.stdout).not.toContain('allow it?');
    expect(second.stdout).toContain('Always allowed: every tool, by --yes');
    expect(second.stdout).not.toContain('Waiting for your answer');
    expect(existsSync(join(cwd, 'e.txt'))).toBe(true);
  });
});
