/**
 * One failure path per turn: a turn that throws part-way ends like any
 * other, with its outcome and the one turn-end event that matches its
 * turn-start (pi's symmetric start/end stream), never a rejection that
 * the caller must close for it.
 */
import { expect, test } from 'vitest';
import { DEFAULT_LIMITS } from '../src/config/config.js';
import { emptyConversation, startTurn } from '../src/history/conversation.js';
import type { AgentEvent } from '../src/events/agent-events.js';
import { decodeCall } from '../src/agent-tools/decode-call.js';
import { runTurn, type TurnSetup } from '../src/loop/run-turn.js';
import type { Provider } from '../providers/types.js';

const asking: Provider = {
  kind: 'test',
  model: 'm',
  chat: async () => ({
    message: {
      role: 'assistant',
      content: '',
      toolCalls: [{ id: 'c1', name: 'list', arguments: '{}' }],
    },
  }),
};

const setupWith = (
  events: AgentEvent[],
  beforeToolCall: TurnSetup['beforeToolCall'],
): TurnSetup => {
  const conversation = emptyConversation();
  return {
    title: 'a turn',
    provider: asking,
    systemPrompt: 'be brief',
    conversation,
    turn: startTurn(conversation, 'a turn', 'hello'),
    tools: {
      offer: () => [
        { type: 'function', function: { name: 'list', description: 'list', parameters: {} } },
      ],
      decode: call => decodeCall(call, text => text),
      execute: async () => 'listed',
    },
    ...(beforeToolCall === undefined ? {} : { beforeToolCall }),
    limits: DEFAULT_LIMITS,
    signal: new AbortController().signal,
    observe: event => events.push(event),
  };
};

test('a turn that throws part-way resolves to an error outcome with one turn-start and one turn-end', async () => {
  const events: AgentEvent[] = [];
  const outcome = await runTurn(
    setupWith(events, async () => {
      throw new Error('the policy broke');
    }),
  );
  expect(outcome.stopReason).toBe('error');
  expect(outcome.thrown).toBe('the policy broke');
  const kinds = events.map(event => event.kind);
  expect(kinds.filter(kind => kind === 'turn-start')).toHaveLength(1);
  expect(kinds.filter(kind => kind === 'turn-end')).toHaveLength(1);
  expect(kinds[0]).toBe('turn-start');
  expect(kinds.at(-1)).toBe('turn-end');
  const last = events.at(-1);
  expect(last?.kind === 'turn-end' && last.error).toBe('the agent failed: the policy broke');
});
