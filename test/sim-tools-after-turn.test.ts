/**
 * `/tools` in `npm start` after a turn (issue 45, trial 15): the sample toolbox attached after the
 * agent has answered once is listed as its next turn will offer it, its 120 behind `toolbox` in one
 * line with their count (README, `/tools`), not as the last turn's plan, which named all 120.
 */
import { describe, expect, it } from 'vitest';
import { makeSimRunner } from './support/run-sim.js';
import { useTempFolders } from './support/temp-folders.js';

const makeTempFolder = useTempFolders();
const runSim = makeSimRunner(makeTempFolder);

describe('/tools after /attach toolbox, which came after a turn', () => {
  it("counts the toolbox's 120 in one line, as the next turn defers them", async () => {
    const run = await runSim(['--demo', '--persona', 'fae'], {}, input => {
      input.write('/attach math\n');
      void input.waitFor(/I adopted math/).then(async () => {
        input.write('ping\n');
        await input.waitFor(/pong/);
        input.write('/attach toolbox\n');
        await input.waitFor(/put sample-toolbox in fae's tools\//);
        input.write('/tools\n');
        await input.waitFor(/sample-toolbox, the HOST's, \d+ behind toolbox/);
        input.end();
      });
    });
    expect(run.stdout).toMatch(
      /tools\/sample-toolbox, the HOST's, 120 behind toolbox \(found by what they do\): \/tools toolbox names them/,
    );
    expect(run.stdout).not.toContain('repo_create_item');
  });
});
