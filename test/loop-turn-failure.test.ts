/**
 * One failure path per turn: a turn that throws part-way ends like any
 * other, with its outcome and the one turn-end event that matches its
 * turn-start (pi's symmetric start/end stream), never a rejection that
 * the caller must close for it.
 */
import { expect, test } from 'vitest';
import type { AgentEvent } from '../src/events/agent-events.js';
import { runTurn, type TurnSetup } from '../src/loop/run-turn.js';
import type { Provider } from '../providers/types.js';
import { turnSetup } from './support/turn-setup.js';

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

const setupWith = (events: AgentEvent[], beforeToolCall: TurnSetup['beforeToolCall']): TurnSetup =>
  turnSetup(asking, {
    ...(beforeToolCall === undefined ? {} : { beforeToolCall }),
    observe: event => events.push(event),
  });

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
