/**
 * A message longer than the daemon takes (issue 45, the fifteenth newcomer trial): the daemon's
 * guard on send() refuses a string over its limit, and npm start showed that internal error
 * (`In "send" method of (EndoHost): …`), then left with exit code 0. It is said before sending,
 * with the limit and the message's length, nothing is sent, and piped the run exits 1, as for a
 * turn that did not answer (docs/behaviour.md 10.3).
 */
import { describe, expect, it } from 'vitest';
import { MESSAGE_STRING_LIMIT } from '../sim/mail-host/index.js';
import { makeSimRunner } from './support/run-sim.js';
import { useTempFolders } from './support/temp-folders.js';

const makeTempFolder = useTempFolders();
const runSim = makeSimRunner(makeTempFolder);

describe('a message over the limit', () => {
  it('is refused before sending, in words, and a piped run exits 1', async () => {
    const length = MESSAGE_STRING_LIMIT + 40_001;
    const run = await runSim(['--demo'], {}, input => {
      input.write(`${'w'.repeat(length)}\n`);
      input.end();
    });
    const shown = `${run.stdout}${run.stderr}`;
    expect(shown).toContain(
      `messages are limited to 100,000 characters (this one has 140,001): not sent; split it, or put it in a file and have lal read it (/attach readFile <folder>)`,
    );
    expect(shown).not.toContain('must not be bigger than');
    // Nothing reached the agent: no turn began.
    expect(run.stdout).not.toContain('lal is thinking');
    expect(run.code).toBe(1);
  });

  it('lets one at the limit through', async () => {
    const run = await runSim(['--demo'], {}, input => {
      input.write(`${'w'.repeat(MESSAGE_STRING_LIMIT)}\n`);
      input.end();
    });
    expect(`${run.stdout}${run.stderr}`).not.toContain('messages are limited');
    expect(run.stdout).toContain('lal is thinking');
  });
});
