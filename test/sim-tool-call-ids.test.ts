/**
 * A tool call's progress events carry the call's id (src/events/agent-events.ts), given by the
 * one step that runs every call (src/loop/run-tool-call.ts), so the simulator's presenter ends
 * the call a result is for (sim/chat/presenter.ts). It matched a result to the oldest running call
 * of the same name, so when two calls of one tool overlapped (a runCommand the HOST approved
 * while its asking turn ran outlives that turn, behaviour 6.7, beside the next turn's) and the
 * later one answered first, the screen said the earlier one had ended while it still ran.
 */
import { describe, expect, it } from 'vitest';
import { makePresenter } from '../sim/chat/presenter.js';
import { decodeCall } from '../src/agent-tools/decode-call.js';
import type { AgentEvent } from '../src/events/agent-events.js';
import { runToolCall } from '../src/loop/run-tool-call.js';
import { recordingScreen } from './support/recording-screen.js';

describe("a tool call's events", () => {
  it("carry the call's id, the call's and its result's alike, whether it ran or could not be decoded", async () => {
    const events: AgentEvent[] = [];
    const decoded = decodeCall({ id: 'call_7', name: 'probe', arguments: '{"n":1}' }, t => t);
    await runToolCall(
      decoded,
      async () => 'fine',
      { toolTimeoutMs: 60_000, maxResultChars: 1_000 },
      new AbortController().signal,
      event => events.push(event),
    );
    const bad = decodeCall({ id: 'call_8', name: 'probe', arguments: '{not json' }, t => t);
    await runToolCall(
      bad,
      async () => 'never',
      { toolTimeoutMs: 60_000, maxResultChars: 1_000 },
      new AbortController().signal,
      event => events.push(event),
    );
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
