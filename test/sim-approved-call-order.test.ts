/**
 * Where `npm start` shows a call the person approved while the turn that asked for it still ran
 * (docs/behaviour.md 9.11 and 10.4: it runs after that turn, its result an outcome): after that
 * turn's answer and its "turn over" line, labelled as the approved run. A `y` typed the moment
 * `allow it?` appeared put it before the turn's answer, or the turn's summary above its own
 * answer, as the timing fell (issue 45, trial 14): the answer was held while the approved call
 * ran, as if the call had sent it. Each case here is one of those timings, as events.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { makePresenter } from '../sim/chat/presenter.js';
import type { AgentEvent } from '../src/events/agent-events.js';
import { recordingScreen } from './support/recording-screen.js';
import { makeSimRunner } from './support/run-sim.js';
import { useTempFolders } from './support/temp-folders.js';

const makeTempFolder = useTempFolders();
const runSim = makeSimRunner(makeTempFolder);

const title = '#4 from HOST: "run `cat a.txt`"';
const asked: AgentEvent = { kind: 'tool-asked', id: 'call_1', name: 'runCommand' };
const approvedRun: AgentEvent = {
  kind: 'tool-call',
  id: 'call_1',
  name: 'runCommand',
  summary: '{"command":"cat a.txt"}',
};
const result: AgentEvent = {
  kind: 'tool-result',
  id: 'call_1',
  name: 'runCommand',
  ok: true,
  preview: '{"status":"exited with code 0"}',
};
const turnEnd: AgentEvent = {
  kind: 'turn-end',
  title,
  stopReason: 'done',
  modelCalls: 2,
  usage: { inputTokens: 10, outputTokens: 2 },
};
const answer = '#5 lal › I have asked my host to run it; I will tell you the result.';

const watch = () => {
  const { printed, screen } = recordingScreen();
  const presenter = makePresenter(screen, 'lal');
  const say = () => presenter.show(() => screen.print('agent', answer));
  presenter.observe({ kind: 'turn-start', title });
  presenter.observe({ kind: 'model-call', call: 1, estimatedTokens: 10, chars: 40 });
  presenter.observe(asked);
  presenter.observe({ kind: 'model-call', call: 2, estimatedTokens: 10, chars: 40 });
  return { printed, presenter, say };
};

const inOrder = [
  answer,
  '  · turn over: 2 model calls, 10 in / 2 out tokens',
  '  → approved runCommand command="cat a.txt" ✓',
];

/** The approved call run and ended within the turn, the turn over, its answer sent: its block shown. */
const watchEndedBlock = async () => {
  const watched = watch();
  watched.presenter.observe(approvedRun);
  watched.presenter.observe(result);
  watched.presenter.observe(turnEnd);
  watched.say();
  await vi.waitFor(() => expect(watched.printed).toHaveLength(3));
  return watched;
};

describe('a call approved while the turn that asked for it runs', () => {
  it('run and ended within the turn: shown after the turn’s answer and its turn over line', async () => {
    const { printed } = await watchEndedBlock();
    expect(printed).toEqual(inOrder);
  });

  it('still running as the turn ends: the answer is not held for it, nor the summary put above the answer', async () => {
    const { printed, presenter, say } = watch();
    presenter.observe(approvedRun);
    presenter.observe(turnEnd);
    say();
    // The turn's block is whole before the approved call answers.
    await vi.waitFor(() => expect(printed).toHaveLength(2));
    expect(printed).toEqual(inOrder.slice(0, 2));
    // It still runs: the prompt is busy with it (Ctrl-C stops it, behaviour 6.7), and no turn.
    expect(presenter.busy()).toBe(true);
    expect(presenter.approvedRun()).toBe('runCommand');
    presenter.observe(result);
    expect(printed).toEqual(inOrder);
    expect(presenter.approvedRun()).toBeUndefined();
  });

  it('while the asking turn runs, its approved call is the turn’s to stop, not a run of its own', () => {
    const { presenter } = watch();
    presenter.observe(approvedRun);
    expect(presenter.approvedRun()).toBeUndefined();
  });

  it('shows the block once: the next turn prints its own lines, none of the one before again', async () => {
    const { printed, presenter } = await watchEndedBlock();
    const next = '#7 from HOST: "ping"';
    presenter.observe({ kind: 'turn-start', title: next });
    presenter.show(() => printed.push('#8 lal › pong'));
    presenter.observe({ ...turnEnd, title: next, modelCalls: 1 });
    await vi.waitFor(() => expect(printed.at(-1)).toMatch(/turn over: 1 model call\b/));
    expect(printed.slice(0, 3)).toEqual(inOrder);
    expect(printed.slice(3)).toEqual(['#8 lal › pong', expect.stringMatching(/turn over/)]);
  });

  it('a call the turn ran itself still holds the message it sent until its line is shown', () => {
    const { printed, presenter, say } = watch();
    presenter.observe({ ...approvedRun, id: 'call_2', name: 'math', summary: '{"x":1}' });
    say();
    expect(printed).toEqual([]);
    presenter.observe({ ...result, id: 'call_2', name: 'math' });
    expect(printed).toEqual(['  → math x=1 ✓', answer]);
  });
});

describe('npm start, y typed the moment allow it? is shown (the demo, piped)', () => {
  it("shows the asking turn's answer, then its turn over line, then the approved run", async () => {
    const root = makeTempFolder('root');
    writeFileSync(join(root, 'a.txt'), 'hello\n');
    const run = await runSim(['--demo', '--persona', 'lal', '--fresh'], {}, input => {
      input.write(`/attach runCommand ${root}\n`);
      void input.waitFor(/I adopted/).then(async () => {
        input.write('run `cat a.txt`\n');
        await input.waitFor(/allow it\?/);
        input.write('y\n');
        await input.waitFor(/lal › Done: /);
        input.end();
      });
    });
    expect(run.stderr).toBe('');
    const lines = run.stdout.split('\n');
    const at = (pattern: RegExp) => lines.findIndex(line => pattern.test(line));
    const approved = at(/^approved #\d+$/);
    const answered = at(/lal › I have asked my host/);
    const over = lines.findIndex((line, index) => index > answered && /turn over/.test(line));
    const ran = at(/→ approved runCommand command="cat a\.txt" ✓/);
    expect(approved).toBeGreaterThan(-1);
    expect(answered).toBeGreaterThan(-1);
    expect(over).toBeGreaterThan(answered);
    expect(ran, run.stdout).toBeGreaterThan(over);
  });
});
