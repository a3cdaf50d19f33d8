/**
 * A turn for the loop's module tests (src/loop/run-turn.ts): a fresh
 * conversation with one turn, saying "hello", whose model may call one tool,
 * `list` (it answers "listed"), within the default limits; `more` replaces
 * any of it.
 */
import { DEFAULT_LIMITS } from '../../src/config/config.js';
import { emptyConversation, startTurn } from '../../src/history/conversation.js';
import { decodeCall } from '../../src/agent-tools/decode-call.js';
import type { TurnSetup, TurnTools } from '../../src/loop/run-turn.js';
import type { Provider } from '../../providers/types.js';

/** The one tool the turn offers, its calls decoded as the agent decodes them. */
export const listTool = (): TurnTools => ({
  offer: () => [
    { type: 'function', function: { name: 'list', description: 'list', parameters: {} } },
  ],
  decode: call => decodeCall(call, text => text),
  execute: async () => 'listed',
});

export const turnSetup = (provider: Provider, more: Partial<TurnSetup> = {}): TurnSetup => {
  const conversation = emptyConversation();
  return {
    title: 'a turn',
    provider,
    systemPrompt: 'be brief',
    conversation,
    turn: startTurn(conversation, 'a turn', 'hello'),
    tools: listTool(),
    limits: DEFAULT_LIMITS,
    signal: new AbortController().signal,
    observe: () => {},
    ...more,
  };
};
