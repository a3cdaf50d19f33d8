/**
 * Where the agent's events go (behaviour 1.4): its log and an observer
 * given at make(). The log writes each line redacted, so an event is not
 * copied redacted for it (issue 46, point 8: a ping allocates less); an
 * observer given is still told a redacted copy, and the event the loop
 * holds is left as it was.
 */
import { describe, expect, test } from 'vitest';
import { makeAgentOutput } from '../src/log/agent-output.js';
import type { AgentEvent } from '../src/events/agent-events.js';

const TOKEN = 'sk-"quoted\\secret-99';

describe("the agent's output (behaviour 1.4)", () => {
  test('with no observer given, a step that holds the token is logged redacted', () => {
    const lines: string[] = [];
    const output = makeAgentOutput(
      { LAL_AUTH_TOKEN: TOKEN, LAL_LOG: 'steps' },
      { log: line => lines.push(line) },
    );
    output.observe({
      kind: 'tool-result',
      id: 'c1',
      name: 'reply',
      ok: true,
      preview: `key ${TOKEN}`,
    });
    output.observe({ kind: 'turn-start', title: `#1 from HOST: ${TOKEN}` });
    expect(lines).toHaveLength(2);
    expect(lines.join('\n')).not.toContain(TOKEN);
    expect(lines.join('\n')).toContain('[redacted]');
  });

  test('a turn logged at the default level hides the token in its one line', () => {
    const lines: string[] = [];
    const output = makeAgentOutput({ LAL_AUTH_TOKEN: TOKEN }, { log: line => lines.push(line) });
    output.observe({ kind: 'turn-start', title: `#1 from HOST: ${TOKEN}` });
    output.observe({
      kind: 'turn-end',
      stopReason: 'error',
      modelCalls: 1,
      usage: { inputTokens: 1, outputTokens: 1 },
      error: `refused ${TOKEN}`,
    } as AgentEvent);
    expect(lines).toHaveLength(1);
    expect(lines[0]).not.toContain(TOKEN);
    expect(lines[0]).toMatch(/^turn #1 from HOST: \[redacted\]: error, .*: refused \[redacted\]$/);
  });

  test('an observer given is told a redacted copy; the event itself is left as it was', () => {
    const told: AgentEvent[] = [];
    const output = makeAgentOutput(
      { LAL_AUTH_TOKEN: TOKEN, LAL_LOG: 'off' },
      { log: () => {}, observe: event => told.push(event) },
    );
    const event: AgentEvent = { kind: 'model-text', call: 1, text: `key ${TOKEN}` };
    output.observe(event);
    expect(told).toEqual([{ kind: 'model-text', call: 1, text: 'key [redacted]' }]);
    expect(event).toEqual({ kind: 'model-text', call: 1, text: `key ${TOKEN}` });
  });

  test("an observer that throws disturbs neither the agent nor the log's line", () => {
    const lines: string[] = [];
    const output = makeAgentOutput(
      { LAL_LOG: 'steps' },
      {
        log: line => lines.push(line),
        observe: () => {
          throw Error('observer down');
        },
      },
    );
    expect(() => output.observe({ kind: 'turn-start', title: 'hello' })).not.toThrow();
    expect(lines).toHaveLength(1);
  });
});
