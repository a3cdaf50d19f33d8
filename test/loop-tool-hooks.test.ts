/**
 * The loop owns each tool call's step (src/loop/tool-call-hooks.ts, as pi-mono's agent loop):
 * `beforeToolCall` judges it, the loop runs what is let through with the `execute` it was
 * given, under the tool time limit, and tells `afterToolCall`; what the hook answers instead
 * is what the model sees, and nothing runs; a call run later (an approval) goes through the
 * same step.
 */
import { describe, expect, test } from 'vitest';
import { DEFAULT_LIMITS } from '../src/config/config.js';
import type { AgentEvent } from '../src/events/agent-events.js';
import { decodeCall } from '../src/agent-tools/decode-call.js';
import { runTurn, type TurnSetup, type TurnTools } from '../src/loop/run-turn.js';
import type { ToolCallHooks } from '../src/loop/tool-call-hooks.js';
import type { Provider } from '../providers/types.js';
import { listTool, turnSetup } from './support/turn-setup.js';

/** A model that asks for `list` once, then ends with text. */
const listsOnce = (): Provider => {
  let calls = 0;
  return {
    kind: 'test',
    model: 'm',
    chat: async () => {
      calls += 1;
      return calls === 1
        ? {
            message: {
              role: 'assistant',
              content: '',
              toolCalls: [{ id: 'c1', name: 'list', arguments: '{"path":"a"}' }],
            },
          }
        : { message: { role: 'assistant', content: 'done' } };
    },
  };
};

const setupWith = (
  events: AgentEvent[],
  { execute, ...hooks }: ToolCallHooks & Pick<TurnTools, 'execute'>,
  limits = DEFAULT_LIMITS,
  decode: TurnTools['decode'] = listTool().decode,
): TurnSetup =>
  turnSetup(listsOnce(), {
    tools: { ...listTool(), decode, execute },
    limits,
    observe: event => events.push(event),
    ...hooks,
  });

/** What the model was shown as the result of its one call. */
const toolResult = (setup: TurnSetup) =>
  setup.turn.messages.find(message => message.role === 'tool')?.content;

describe('the loop owns the tool step', () => {
  test('a call the hook lets through runs with the given execute, and afterToolCall is told after', async () => {
    const steps: string[] = [];
    const events: AgentEvent[] = [];
    const setup = setupWith(events, {
      beforeToolCall: async (call, { offered }) => {
        steps.push(`before ${call.call.name} of ${offered.join(',')}`);
        return undefined;
      },
      execute: async (call, offered) => {
        steps.push(
          `execute ${call.call.name} ${JSON.stringify(call.args)} of ${offered.join(',')}`,
        );
        return { listed: ['x'] };
      },
      afterToolCall: call => steps.push(`after ${call.call.name}`),
    });
    const outcome = await runTurn(setup);
    expect(outcome.stopReason).toBe('done');
    expect(steps).toEqual([
      'before list of list',
      'execute list {"path":"a"} of list',
      'after list',
    ]);
    expect(JSON.parse(toolResult(setup) ?? '')).toEqual({ listed: ['x'] });
    // The loop's own events say the call and its result.
    expect(events.filter(event => event.kind === 'tool-result')).toMatchObject([
      { name: 'list', ok: true },
    ]);
  });

  test('what beforeToolCall answers instead is what the model sees; nothing runs and nothing is noted', async () => {
    const steps: string[] = [];
    const setup = setupWith([], {
      beforeToolCall: async () => '{"error":"refused: not yours"}',
      execute: async () => {
        steps.push('execute');
        return 'ran';
      },
      afterToolCall: () => steps.push('after'),
    });
    await runTurn(setup);
    expect(toolResult(setup)).toBe('{"error":"refused: not yours"}');
    expect(steps).toEqual([]);
  });

  test('a call run later (an approval) goes through the same step: executed, timed, not told after (its result comes back as an outcome)', async () => {
    const steps: string[] = [];
    let later: (() => Promise<string>) | undefined;
    const setup = setupWith(
      [],
      {
        beforeToolCall: async (_call, step) => {
          later = step.later;
          return '{"status":"pending"}';
        },
        execute: () => {
          steps.push('execute');
          // Never settles: only the loop's time limit ends it.
          return new Promise(() => {});
        },
        afterToolCall: () => steps.push('after'),
      },
      { ...DEFAULT_LIMITS, toolTimeoutMs: 5 },
    );
    await runTurn(setup);
    expect(toolResult(setup)).toBe('{"status":"pending"}');
    expect(steps).toEqual([]);
    const text = await later!();
    expect(text).toMatch(/timed out/);
    // Told after, the turn that asked (ended by now) would be labelled by a result it never read.
    expect(steps).toEqual(['execute']);
  });

  test("a call put to the HOST is told by the call's id, the id its later run's events carry (the simulator places that run after its turn)", async () => {
    const events: AgentEvent[] = [];
    let later: (() => Promise<string>) | undefined;
    const setup = setupWith(events, {
      beforeToolCall: async (_call, step) => {
        later = step.later;
        return '{"status":"pending"}';
      },
      execute: async () => ({ listed: [] }),
    });
    await runTurn(setup);
    await later!();
    expect(
      events.flatMap(event =>
        event.kind.startsWith('tool-') ? [[event.kind, (event as { id?: string }).id]] : [],
      ),
    ).toEqual([
      ['tool-asked', 'c1'],
      ['tool-call', 'c1'],
      ['tool-result', 'c1'],
    ]);
  });

  test('an undecodable call is run to its own error, never shown to afterToolCall', async () => {
    const steps: string[] = [];
    const setup = setupWith(
      [],
      {
        execute: async () => {
          steps.push('execute');
          return 'ran';
        },
        afterToolCall: () => steps.push('after'),
      },
      DEFAULT_LIMITS,
      call => decodeCall({ ...call, arguments: '{"path": ' }, text => text),
    );
    await runTurn(setup);
    expect(toolResult(setup)).toMatch(/not valid JSON/);
    expect(steps).toEqual([]);
  });
});
