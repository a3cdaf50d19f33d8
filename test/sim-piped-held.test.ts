/**
 * Piped `npm start` (README, "Commands"; behaviour 10.3): the program exits
 * once the input has ended and the agent is idle, with 1 when a message was
 * not answered. A message the hourly budget holds for later is one: the
 * script hears so at once and ends, rather than waiting out the hour.
 */
import { describe, expect, it } from 'vitest';
import { makeSimRunner } from './support/run-sim.js';
import { useTempFolders } from './support/temp-folders.js';

const makeTempFolder = useTempFolders();
const runSim = makeSimRunner(makeTempFolder);

describe('piped npm start and the hourly budget', () => {
  it('exits 1 when the budget holds the last message, having said when it will be taken up', async () => {
    const run = await runSim(['--demo'], { LAL_MAX_CALLS_PER_HOUR: '1' }, input => {
      input.write('ping\nping\n');
      input.end();
    });
    expect(run.stderr).toBe('');
    expect(run.stdout).toMatch(/^#\d+ lal › pong$/m);
    expect(run.stdout).toMatch(/lal › I have used this hour's budget .*Your message #\d+ is kept/);
    expect(run.code).toBe(1);
  });

  it('still exits 0 when every message was answered', async () => {
    const run = await runSim(['--demo'], { LAL_MAX_CALLS_PER_HOUR: '5' }, input => {
      input.write('ping\n');
      input.end();
    });
    expect(run.stdout).toMatch(/^#\d+ lal › pong$/m);
    expect(run.code).toBe(0);
  });
});

describe('piped npm start --verbose, its input ended', () => {
  it('leaves without reporting a cancellation: the run ended as it should', async () => {
    const run = await runSim(['--demo', '--fresh', '--verbose'], { LAL_LOG: 'off' }, input => {
      input.write('ping\n');
      input.end();
    });
    // Only the one line saying the log is off (issue 45): no cancellation reported.
    expect(run.stderr).toBe(
      "warning: --verbose shows the agent's log, but LAL_LOG=off keeps it empty, so nothing of it will show; set LAL_LOG=turns (or steps) to see it.\n",
    );
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^#\d+ lal › pong$/m);
    // The log's lines were shown as they came: --verbose took effect.
    expect(run.stdout).toMatch(/^ {2}\S/m);
    expect(run.stdout).not.toMatch(/cancel/i);
  });
});
