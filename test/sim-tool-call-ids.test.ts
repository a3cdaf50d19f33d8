/**
 * A tool call's progress events carry the call's id (src/events/agent-events.ts), given by the
 * one step that runs every call (src/loop/run-tool-call.ts), so the simulator's presenter ends
 * the call a result is for (sim/chat/presenter.ts). It matched a result to the oldest running call
 * of the same name, so when two calls of one tool overlapped (a runCommand the HOST approved
 * while its asking turn ran outlives that turn, behaviour 6.7, beside the next turn's) and the
 * later one answered first, the screen said the earlier one had ended while it still ran. A
 * helper's calls carry ids unique to the agent too (src/helpers/helper-call-ids.ts): its provider
 * may give the ids the agent's gave, and the screen said the agent's call had ended when the
 * helper's did (or the other way round).
 */
import { describe, expect, it } from 'vitest';
import { E } from '@endo/far';
import { makePresenter } from '../sim/chat/presenter.js';
import { decodeCall } from '../src/agent-tools/decode-call.js';
import type { AgentEvent } from '../src/events/agent-events.js';
import { runToolCall } from '../src/loop/run-tool-call.js';
import { recordingScreen } from './support/recording-screen.js';
import { makeMailHost } from '../sim/mail-host/index.js';
import type { AssistantMessage } from '../providers/types.js';
import { callTool, type RecordedRequest, type Step } from './support/scripted-provider.js';
import { latestMessageNumber } from './support/agent-harness.js';
import { useAgents } from './support/use-agents.js';

const probeUrl = new URL('./support/misbehaving-tool.ts', import.meta.url).href;

describe("a tool call's events", () => {
  it("carry the call's id, the call's and its result's alike, whether it ran or could not be decoded", async () => {
    const events: AgentEvent[] = [];
    // A call of `probe` with `args` as the model wrote them, run to its result.
    const run = (id: string, args: string) =>
      runToolCall(
        decodeCall({ id, name: 'probe', arguments: args }, t => t),
        async () => 'fine',
        { toolTimeoutMs: 60_000, maxResultChars: 1_000 },
        new AbortController().signal,
        event => events.push(event),
      );
    await run('call_7', '{"n":1}');
    await run('call_8', '{not json');
    expect(events.map(event => [event.kind, 'id' in event ? event.id : undefined])).toEqual([
      ['tool-call', 'call_7'],
      ['tool-result', 'call_7'],
      ['tool-call', 'call_8'],
      ['tool-result', 'call_8'],
    ]);
  });
});

describe('the simulator, two calls of one tool running at once', () => {
  it('ends the call the result is for: the later one answering first leaves the earlier running', () => {
    const { printed, screen } = recordingScreen(false);
    const presenter = makePresenter(screen, 'lal');
    presenter.observe({ kind: 'turn-start', title: '#3 from HOST: "run both"' });
    presenter.observe({
      kind: 'tool-call',
      id: 'call_1',
      name: 'runCommand',
      summary: '{"command":"sleep 30"}',
    });
    presenter.observe({
      kind: 'tool-call',
      id: 'call_2',
      name: 'runCommand',
      summary: '{"command":"echo quick"}',
    });
    presenter.observe({
      kind: 'tool-result',
      id: 'call_2',
      name: 'runCommand',
      ok: true,
      preview: '{"status":"exited with code 0"}',
    });
    expect(printed).toEqual(['  → runCommand command="echo quick" ✓']);
    presenter.observe({
      kind: 'turn-end',
      title: '#3 from HOST: "run both"',
      stopReason: 'answered',
      modelCalls: 2,
      usage: { inputTokens: 10, outputTokens: 2 },
    });
    // The earlier call still runs: the prompt is busy with it, and it is the one the result ends.
    expect(presenter.busy()).toBe(true);
    presenter.observe({
      kind: 'tool-result',
      id: 'call_1',
      name: 'runCommand',
      ok: false,
      preview: 'stopped',
    });
    expect(printed).toEqual([
      '  → runCommand command="echo quick" ✓',
      '  → runCommand command="sleep 30" ✗ stopped',
    ]);
  });
});

/** A reply of the model that calls `name` with `args`, under the call id `id` (a provider's own). */
const callWithId = (id: string, name: string, args: Record<string, unknown>): AssistantMessage => ({
  role: 'assistant',
  content: '',
  toolCalls: [{ id, name, arguments: JSON.stringify(args) }],
});

describe("a helper's call and the agent's under the same provider id (behaviour 7.9)", () => {
  const { start } = useAgents();

  it('carry ids unique to the agent, so the simulator ends the one a result is for', async () => {
    const host = makeMailHost();
    await E(host.host).makeUnconfined('worker-probe', probeUrl, {
      resultName: 'probe-tool',
      env: { TOOL_NAME: 'probe', MODE: 'hang-if-told' },
    });
    const isHelpers = (request: RecordedRequest) =>
      request.messages[0]?.content.startsWith('You are a helper') === true;
    // The helper's call hangs until the HOST cancels the helper; the agent's, made once the
    // helper's has begun, answers at once. Both have the id the provider gave: call_1.
    let helperCalled: () => void = () => {};
    const helperCalls = new Promise<void>(resolve => (helperCalled = resolve));
    type Answer = (request: RecordedRequest) => AssistantMessage | Promise<AssistantMessage>;
    const agent: Answer[] = [
      () =>
        callWithId('call_9', 'mail', { op: 'helper', description: 'Probe it', grant: ['probe'] }),
      async () => {
        await helperCalls;
        return callWithId('call_1', 'probe', {});
      },
      request =>
        callTool('reply', { messageNumber: latestMessageNumber(request), strings: ['probed'] }),
    ];
    const helper: Answer[] = [
      () => {
        helperCalled();
        return callWithId('call_1', 'probe', { hang: true });
      },
    ];
    // One model for both, which run at once: each request takes the next answer of its own.
    const steps: Step[] = Array.from(
      { length: 4 },
      () => request => (isHelpers(request) ? helper : agent).shift()!(request),
    );
    const run = await start({
      host,
      persona: 'fae',
      introducedNames: { 'probe-tool': 'probe-tool' },
      steps,
    });
    await run.send('Probe it, with a helper too.');
    await run.reply('probed');
    expect(await run.helpers('cancel', 'h1')).toMatch(/^Cancelled h1/);
    await run.untilEvent(
      event => event.kind === 'tool-result' && event.name === 'probe' && !event.ok,
    );

    const calls = run.events.filter(event => event.kind === 'tool-call' && event.name === 'probe');
    const ids = calls.map(event => (event.kind === 'tool-call' ? event.id : ''));
    expect(new Set(ids).size).toBe(2);

    const { printed, screen } = recordingScreen(false);
    const presenter = makePresenter(screen, 'fae');
    for (const event of run.events) presenter.observe(event);
    const probeLines = printed.filter(line => line.includes('→ probe'));
    // The agent's call (no arguments) ended first, while the helper's (hang=true) still ran.
    expect(probeLines).toEqual([
      expect.stringMatching(/^ {2}→ probe ✓$/),
      expect.stringMatching(/^ {2}→ probe hang=true ✗/),
    ]);
  });
});
