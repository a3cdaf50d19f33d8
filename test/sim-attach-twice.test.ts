/**
 * A tool attached twice in `npm start`: the second /attach is refused at once, the tool being in
 * the agent's tools/ already (a tool never replaces another, docs/behaviour.md, so the agent would
 * only refuse it; issue 45), and the conversation is still kept in the state folder after it
 * (README: "memory survives a restart"), not lost to a name the refused attachment left behind.
 */
import { describe, expect, it } from 'vitest';
import { makeSimRunner } from './support/run-sim.js';
import { useTempFolders } from './support/temp-folders.js';

const makeTempFolder = useTempFolders();
const runSim = makeSimRunner(makeTempFolder);

describe('/attach of a tool the agent already holds', () => {
  it('is refused, and the conversation after it is still kept for the next run', async () => {
    const state = { XDG_STATE_HOME: makeTempFolder('state') };
    const first = await runSim(['--demo', '--persona', 'fae'], state, input => {
      input.write('/attach math\n');
      void input.waitFor(/I adopted/).then(async () => {
        input.write('/attach math\n');
        await input.waitFor(/math is already attached: fae holds it as tools\/math;/);
        input.write('ping\n');
        await input.waitFor(/pong/);
        input.end();
      });
    });
    expect(`${first.stdout}${first.stderr}`).not.toContain('could not keep');
    const second = await runSim(['--demo', '--persona', 'fae'], state, input => {
      input.write('/memory\n');
      input.end();
    });
    expect(second.stdout).toMatch(/ping/);
  });
});

describe('/attach toolbox when the agent holds the sample toolbox already', () => {
  it('is refused as another tool is, naming /detach toolbox, not made again', async () => {
    const state = { XDG_STATE_HOME: makeTempFolder('state') };
    const run = await runSim(['--demo', '--persona', 'fae'], state, input => {
      input.write('/attach toolbox\n');
      void input.waitFor(/put sample-toolbox in fae's tools\//).then(async () => {
        input.write('/attach toolbox\n');
        await input.waitFor(/toolbox is already attached: fae holds it as tools\/sample-toolbox;/);
        input.end();
      });
    });
    const out = `${run.stdout}${run.stderr}`;
    expect(out).toMatch(/\/detach toolbox first to attach it again/);
    expect(out.match(/put sample-toolbox in fae's tools\//g)).toHaveLength(1);
  });
});
