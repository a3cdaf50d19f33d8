/**
 * A message an ended run left unanswered (docs/behaviour.md 10.1): the
 * daemon double keeps the agent's inbox across runs, as the real daemon does
 * over `endo restart`, and the next run's agent takes the message up. Nothing
 * on the new run's screen asked it, so its turn says where it came from
 * before the answer arrives; it used to start with no word that it was old.
 */
import { describe, expect, it } from 'vitest';
import { makeSimRunner } from './support/run-sim.js';
import { useTempFolders } from './support/temp-folders.js';

const makeTempFolder = useTempFolders();
const runSim = makeSimRunner(makeTempFolder);

describe('npm start run again with a message left unanswered', () => {
  it('says the turn takes up a message from before, then answers it', async () => {
    const state = { XDG_STATE_HOME: makeTempFolder('state') };
    // A long answer is streamed a word at a time: the run is ended (a closed terminal) as it starts.
    const first = await runSim(['--demo', '--fresh'], state, input => {
      input.write('tell me a long story\n');
      void input.waitFor(/you › tell me a long story\n\(lal is thinking…\)/).then(() => {
        input.signal('SIGHUP');
        input.end();
      });
    });
    expect(first.stderr).toBe('');
    expect(first.stdout).not.toContain('taking up');

    const second = await runSim(['--demo'], state, input => {
      void input.waitFor(/turn over/).then(() => input.end());
    });
    expect(second.stderr).toBe('');
    const taken = second.stdout.search(
      /◦ taking up #\d+ from HOST: "tell me a long story", left unanswered when the last run ended/,
    );
    expect(taken).toBeGreaterThanOrEqual(0);
    // Said before the answer it leads to, once.
    expect(taken).toBeLessThan(second.stdout.indexOf('lal › Here is a long answer'));
    expect(second.stdout.split('taking up').length).toBe(2);
  });
});
