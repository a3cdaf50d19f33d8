/**
 * What /status and /memory say, in words a newcomer reads at once (README's
 * command list): a toolbox's deferred tools counted, not listed; what --yes
 * allows; whose words a kept turn holds, and why it is labelled.
 */
import { describe, expect, it } from 'vitest';
import { makeSimRunner } from './support/run-sim.js';
import { useTempFolders } from './support/temp-folders.js';

const makeTempFolder = useTempFolders();
const runSim = makeSimRunner(makeTempFolder);

/** One section of /status's output: its lines after the title, up to the next title. */
const section = (stdout: string, title: string): string[] => {
  const lines = stdout.split('\n');
  const at = lines.indexOf(`${title}:`);
  if (at < 0) return [];
  const end = lines.findIndex((line, index) => index > at && !line.startsWith('- '));
  return lines.slice(at + 1, end < 0 ? undefined : end);
};

describe('/status', () => {
  it("counts a toolbox's deferred tools (and says how the agent reaches them), listing only those offered one by one", async () => {
    const run = await runSim(['--demo', '--fresh'], {}, input => {
      input.write('/attach toolbox\nping\n/status\n');
      input.end();
    });
    expect(run.stderr).toBe('');
    const offered = section(run.stdout, 'Tools offered');
    expect(offered, run.stdout).toHaveLength(1);
    expect(offered[0]).toMatch(
      /^- 120 tools of tools\/sample-toolbox, the HOST's: deferred behind toolbox, which the agent searches by what a tool does .*LAL_TOOL_BUDGET_TOKENS/,
    );
    expect(run.stdout).not.toMatch(/^- calendar_export_item:/m);
  });

  it('/tools names every tool the agent can reach: the built-ins, one offered by name, the toolbox counted, /tools toolbox names its 120', async () => {
    const run = await runSim(['--demo', '--fresh'], {}, input => {
      input.write('/tools\n/attach math\n');
      void input.waitFor(/I adopted math/).then(async () => {
        input.write('/tools\n/attach toolbox\nping\n');
        await input.waitFor(/lal › pong/);
        input.write('/tools\n/tools toolbox\n/tools box\n');
        input.end();
      });
    });
    expect(run.stderr).toBe('');
    const [none, one, many, named] = run.stdout.split(/you › \/tools(?: toolbox)?\n/).slice(1);
    expect(none).toMatch(/^built in: reply, send, names, mail, evaluate, schedule\nyou › /);
    expect(one!.split('\n')).toContain("tools/math, the HOST's: math");
    // The toolbox in one line, its count and how to see them (issue 45, trial 12: 120 names were a
    // wall); past the schema budget math waits behind the toolbox too, still named on its line.
    const lines = many!.split('\n');
    expect(lines).toContain(
      "tools/sample-toolbox, the HOST's, 120 behind toolbox (found by what they do): /tools toolbox names them",
    );
    expect(lines).toContain(
      "tools/math, the HOST's, 1 behind toolbox (found by what they do): math",
    );
    expect(many).not.toContain('calendar_export_item');
    // /tools toolbox: the lines of the tools behind it, each whole.
    const deferred = named!
      .split('\n')
      .find(line => line.startsWith("tools/sample-toolbox, the HOST's, "));
    expect(deferred).toMatch(
      /^tools\/sample-toolbox, the HOST's, 120 behind toolbox \(found by what they do\): /,
    );
    const names = deferred!.slice(deferred!.indexOf('): ') + 3).split(', ');
    expect(names).toHaveLength(120);
    expect(names).toContain('calendar_export_item');
    expect(named).not.toMatch(/^built in:/m);
    expect(run.stdout).toContain('Usage: /tools [toolbox]');
  });

  it('says that --yes allows every tool, and which ones LAL_TOOLS_CONFIRM still asks about', async () => {
    const yes = await runSim(['--demo', '--fresh', '--yes'], {}, input => {
      input.write('/status\n');
      input.end();
    });
    expect(yes.stdout).toMatch(
      /^Always allowed: every tool, by --yes \(npm start asks before none\)$/m,
    );
    expect(yes.stdout).not.toContain('Always allowed: none');
    const named = await runSim(
      ['--demo', '--fresh', '--yes'],
      { LAL_TOOLS_CONFIRM: 'runCommand' },
      input => {
        input.write('/status\n');
        input.end();
      },
    );
    expect(named.stdout).toMatch(
      /^Always allowed: every tool but runCommand, by --yes \(LAL_TOOLS_CONFIRM names those: you are asked before them\)$/m,
    );
  });
});

describe('/memory', () => {
  it("says whose words a kept turn held; a wake-up set after a call the HOST approved is not said to follow that call's result", async () => {
    const folder = makeTempFolder('run-here');
    const run = await runSim(['--demo', '--fresh'], {}, input => {
      input.write(`/attach runCommand ${folder}\nplease run \`echo hi\`\n`);
      void input.waitFor(/\(approval request #\d+\)/).then(async () => {
        input.write('y\n');
        await input.waitFor(/^#\d+ lal › Done: /m);
        input.write('remind me in 1 seconds to stretch\n');
        await input.waitFor(/^#\d+ lal › w1: stretch$/m);
        input.write('/memory\n');
        input.end();
      });
    });
    expect(run.stderr).toBe('');
    const memory = run.stdout.slice(run.stdout.indexOf('What lal keeps:'));
    // The outcome turn read runCommand's result: said in plain words, and why it is kept apart.
    expect(memory).toMatch(
      /^ {2}· outcome \(held words from the outcome of approval request a1, not from the HOST\)$/m,
    );
    expect(memory).toMatch(/keeps them out of later turns/);
    // The HOST asked for the reminder; nothing it read came from others.
    expect(memory).toMatch(/^ {2}· wake-up w1: "stretch"$/m);
    expect(memory).not.toMatch(/set after reading/);
  });
});
