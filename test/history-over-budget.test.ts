/**
 * A turn in progress that outgrows the budget by itself (history/build-request.ts):
 * once no finished turn is left to fold, the digest is trimmed from the
 * middle (its first entries and a count of what was left out stay), then
 * the oldest tool results of the turn are elided, the latest kept; every
 * call keeps its result. When nothing is left to shorten, the request is
 * sent as it is rather than looping.
 */
import { expect, test } from 'vitest';
import { buildRequest, ELIDED_RESULT } from '../src/history/build-request.js';
import { emptyConversation, startTurn } from '../src/history/conversation.js';
import type { ChatMessage } from '../providers/types.js';

const conversationWithResults = (resultChars: number) => {
  const conversation = emptyConversation();
  for (let index = 0; index < 10; index += 1)
    conversation.digest.push({
      text: `#${index} from HOST: "q${index}" → replied "a${index}"`,
      count: 1,
    });
  const turn = startTurn(conversation, '#11 from HOST: "read them"', 'Message #11: read the files');
  for (let index = 0; index < 3; index += 1) {
    turn.messages.push(
      {
        role: 'assistant',
        content: '',
        toolCalls: [{ id: `c${index}`, name: 'readFile', arguments: `{"path":"f${index}"}` }],
      },
      { role: 'tool', toolCallId: `c${index}`, name: 'readFile', content: 'x'.repeat(resultChars) },
    );
  }
  return conversation;
};

const results = (messages: ChatMessage[]) =>
  messages.filter(message => message.role === 'tool').map(message => message.content);

test('the digest is trimmed, then the oldest results elided, until the request fits', () => {
  const conversation = conversationWithResults(2_000);
  const budget = { contextTokens: 1_000, keepTurns: 4, digestChars: 3_000 };
  const { messages, estimatedTokens } = buildRequest('SYSTEM', conversation, [], budget);
  expect(estimatedTokens).toBeLessThanOrEqual(budget.contextTokens);
  expect(conversation.digest.map(entry => entry.text.slice(0, 2))).toEqual([
    '#0',
    '#1',
    '#2',
    '#9',
  ]);
  expect(messages[1]?.content).toContain('- (6 more earlier exchanges left out)');
  expect(results(messages)).toEqual([ELIDED_RESULT, ELIDED_RESULT, 'x'.repeat(2_000)]);
  // Each call still has its result, right after it.
  const calls = messages.filter(message => message.role === 'assistant');
  expect(calls).toHaveLength(3);
});

test('a turn whose latest result alone is over the budget is sent as it is, with the older ones elided', () => {
  const conversation = conversationWithResults(20_000);
  const budget = { contextTokens: 1_000, keepTurns: 4, digestChars: 3_000 };
  const { messages, estimatedTokens } = buildRequest('SYSTEM', conversation, [], budget);
  expect(estimatedTokens).toBeGreaterThan(budget.contextTokens);
  expect(results(messages)).toEqual([ELIDED_RESULT, ELIDED_RESULT, 'x'.repeat(20_000)]);
  expect(conversation.digest).toHaveLength(4);
});
