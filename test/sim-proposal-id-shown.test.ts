/**
 * An eval-proposal (f0a46042a, `npm start`'s default daemon) is shown with the agent's own id for
 * it beside its number, as a request to run code on the newest daemon is (docs/behaviour.md 10.4:
 * what waits has one name a person can use whichever they read): the agent's words say p1, and
 * the person must not have to guess it (issue 45).
 */
import { describe, expect, it } from 'vitest';
import { makeSimRunner } from './support/run-sim.js';
import { useTempFolders } from './support/temp-folders.js';

const makeTempFolder = useTempFolders();
const runSim = makeSimRunner(makeTempFolder);

describe('an eval-proposal on the default daemon', () => {
  it('is shown with the agent’s id for it, which /grant takes', async () => {
    const run = await runSim(['--demo', '--fresh'], {}, input => {
      input.write('what is 6 * 7? Work it out with code.\n');
      void input
        .waitFor(/turn over/)
        .then(() => input.waitFor(/\(eval-proposal #\d+\)[\s\S]*answer with [^\n]*\n/))
        .then(([shown]) => {
          const id = /or by lal's id for it, (p\d+)\)/.exec(shown)?.[1];
          if (id === undefined) return undefined;
          input.write(`/grant ${id}\n`);
          return input.waitFor(/granted #\d+ → 42/);
        })
        .then(() => input.end());
    });
    const shown = /\(eval-proposal #(\d+)\): 6 \* 7/.exec(run.stdout);
    expect(shown).not.toBeNull();
    const n = shown![1]!;
    expect(run.stdout).toContain(
      `answer with /grant ${n} · /reject ${n} [reason] · /counter ${n} <source> (or by lal's id for it, p1)`,
    );
    expect(run.stdout).toMatch(/you › \/grant p1\ngranted #\d+ → 42/);
  });
});
