/**
 * A misspelt tool name in the tool policy's lists (docs/troubleshooting.md):
 * `npm start` says it in one line at start, with the nearest tool it knows;
 * a name it does not know at all (an MCP server's tool, one attached later)
 * is said as unknown and kept, never refused.
 */
import { describe, expect, it } from 'vitest';
import { loadEnv } from '../sim/chat/dotenv.js';
import { makeSimRunner } from './support/run-sim.js';
import { useTempFolders } from './support/temp-folders.js';

const makeTempFolder = useTempFolders();
const runSim = makeSimRunner(makeTempFolder);

describe('tool names in LAL_TOOLS_DENY, LAL_TOOLS_APPROVE, LAL_TOOLS_CONFIRM and LAL_TOOLS_ALLOW', () => {
  it('a misspelt one is named with the tool meant; an unknown one as unknown; known ones not at all', () => {
    const { problems } = loadEnv(makeTempFolder('env'), {
      LAL_TOOLS_DENY: 'runComand, remove',
      LAL_TOOLS_APPROVE: 'sendd,names',
      LAL_TOOLS_CONFIRM: 'everything_echo',
      LAL_TOOLS_ALLOW: 'reply,mail,toolbox,writeFile',
    });
    expect(problems).toEqual([
      'LAL_TOOLS_APPROVE names sendd, no tool known at start; did you mean send?',
      'LAL_TOOLS_CONFIRM names everything_echo, no tool known at start (a tool attached later under that name is judged by it)',
      'LAL_TOOLS_DENY names runComand, no tool known at start; did you mean runCommand?',
    ]);
  });

  it('npm start says it at start in one line, and goes on', async () => {
    const run = await runSim(['--demo'], { LAL_TOOLS_DENY: 'runComand' }, input => {
      input.write('ping\n');
      input.end();
    });
    expect(run.stderr).toBe(
      'warning: LAL_TOOLS_DENY names runComand, no tool known at start; did you mean runCommand?\n',
    );
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^#\d+ lal › pong/m);
  });
});
