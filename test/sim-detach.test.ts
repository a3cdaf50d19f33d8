/**
 * `/detach` in `npm start`, the inverse of `/attach` (README's command list): the tool the
 * person attached and the agent adopted is taken out of the agent's tools/, so the agent no
 * longer offers it from its next turn and the next run of the same state folder does not give it
 * back; a name that nothing holds is refused, saying what tools/ holds. An MCP server's
 * process ends when its bridge is detached, not when the simulator exits.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkSandbox } from '../tools/lib/sandbox/sandbox-check.js';
import { everythingServer } from './support/mcp-servers.js';
import { makeSimRunner } from './support/run-sim.js';
import { skippedBecause } from './support/skipped-because.js';
import { useTempFolders } from './support/temp-folders.js';
import { runningWith } from './tools-helpers.js';

const makeTempFolder = useTempFolders();
const runSim = makeSimRunner(makeTempFolder);
const sandboxProblem = await checkSandbox();

/** What each /status of a run printed, up to the next line typed. */
const statuses = (stdout: string): string[] =>
  stdout
    .split('you › /status')
    .slice(1)
    .map(block => block.split('you › ')[0]!);

describe('/detach in npm start', () => {
  it('takes an attached tool out of the agent’s hands, for this run and the next', async () => {
    const state = { XDG_STATE_HOME: makeTempFolder('state') };
    const first = await runSim(['--demo', '--persona', 'fae'], state, input => {
      input.write('/attach math\n');
      void input.waitFor(/I adopted/).then(async () => {
        input.write('/status\n/detach math\n');
        await input.waitFor(/^took math out of fae's tools\//m);
        // A turn reads tools/ again; /status then tells what it offers.
        input.write('ping\n/status\n/detach math\n');
        input.end();
      });
    });
    expect(first.stderr).toBe('');
    expect(first.stdout).toMatch(
      /^took math out of fae's tools\/; fae no longer offers it from its next turn$/m,
    );
    const [before, after] = statuses(first.stdout);
    expect(before).toMatch(/^Tools offered:\n- math: tools\/math/m);
    expect(after).toMatch(/^Tools:/m);
    expect(after).not.toMatch(/tools\/math/);
    expect(first.stdout).toMatch(
      /Nothing named math is in fae's tools\/ or among what you attached; fae's tools\/ is empty/,
    );

    const second = await runSim(['--demo', '--persona', 'fae'], state, input => {
      input.write('/status\n');
      input.end();
    });
    expect(second.stderr).toBe('');
    expect(second.stdout).not.toContain('Given back to the agent');
    const [again] = statuses(second.stdout);
    expect(again).toMatch(/^Tools:/m);
    expect(again).not.toMatch(/tools\/math/);
  });

  it('takes the toolbox out by the word it was attached with', async () => {
    const run = await runSim(['--demo', '--persona', 'fae'], {}, input => {
      input.write('/attach toolbox\n');
      void input.waitFor(/^put sample-toolbox in fae's tools\//m).then(async () => {
        input.write('/detach toolbox\n');
        await input.waitFor(/^(took|Nothing named).*$/m);
        input.end();
      });
    });
    expect(run.stderr).toBe('');
    expect(run.stdout).toMatch(
      /^took sample-toolbox out of fae's tools\/; fae no longer offers it from its next turn$/m,
    );
  });
});

describe.skipIf(sandboxProblem !== undefined)(
  `/detach mcp in npm start${skippedBecause(sandboxProblem)}`,
  () => {
    it("ends the MCP server's process at once, while the simulator still runs", async () => {
      // The server's sandbox binds its folder in this state folder: its command line names it.
      const stateHome = makeTempFolder('state');
      const serverFolder = join(stateHome, 'lal-fae', 'fae-demo', 'mcp', 'everything');
      let checked: Promise<void> | undefined;
      const run = await runSim(
        ['--demo', '--persona', 'fae'],
        { XDG_STATE_HOME: stateHome },
        input => {
          input.write(`/attach mcp everything node ${everythingServer}\n`);
          checked = input
            .waitFor(/its server offers \d+ tools/)
            .then(async () => {
              await expect.poll(() => runningWith(serverFolder).length).toBeGreaterThan(0);
              input.write('/detach mcp everything\n');
              await input.waitFor(/^(?:took|dropped) mcp-everything/m);
              // Looked at while the simulator runs: its leaving must not be what ends the server.
              await expect.poll(() => runningWith(serverFolder)).toEqual([]);
            })
            .finally(() => input.end());
        },
      );
      await checked;
      expect(run.stderr).toBe('');
      expect(run.stdout).toMatch(/^(?:took|dropped) mcp-everything/m);
    });
  },
);
