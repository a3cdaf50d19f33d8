import { describe, expect, test } from 'vitest';
import type { ChatMessage } from '../providers/types.js';
import { repairHistory, MISSING_RESULT } from '../src/history/repair-history.js';
import { buildRequest, ELIDED_RESULT } from '../src/history/build-request.js';
import { emptyConversation, startTurn } from '../src/history/conversation.js';
import { estimateRequestTokens } from '../src/history/estimate-tokens.js';
import { makeRepeatGuard } from '../src/loop/repeat-guard.js';
import { decodeCall } from '../src/agent-tools/decode-call.js';
import { capResult } from '../src/loop/cap-result.js';

const call = (id: string, name = 'list', args = '{}') => ({ id, name, arguments: args });

describe('repairHistory (behaviour 3.6)', () => {
  test('a call without a result gets one; an orphan result goes; a stray result moves next to its call', () => {
    const history: ChatMessage[] = [
      { role: 'user', content: 'hi' },
      { role: 'assistant', content: '', toolCalls: [call('a'), call('b')] },
      { role: 'tool', toolCallId: 'b', name: 'list', content: 'B' },
      { role: 'user', content: 'later' },
      { role: 'tool', toolCallId: 'zzz', name: 'list', content: 'orphan' },
    ];
    const repaired = repairHistory(history);
    expect(repaired).toEqual([
      { role: 'user', content: 'hi' },
      { role: 'assistant', content: '', toolCalls: [call('a'), call('b')] },
      { role: 'tool', toolCallId: 'a', name: 'list', content: MISSING_RESULT },
      { role: 'tool', toolCallId: 'b', name: 'list', content: 'B' },
      { role: 'user', content: 'later' },
    ]);
  });
  test('empty messages go, consecutive user messages merge, history starts with the user, stray system goes', () => {
    const repaired = repairHistory([
      { role: 'system', content: 'stray' },
      { role: 'assistant', content: 'hello' },
      { role: 'assistant', content: '   ' },
      { role: 'user', content: 'a' },
      { role: 'user', content: '' },
      { role: 'user', content: 'b' },
    ]);
    expect(repaired.map(message => message.role)).toEqual(['user', 'assistant', 'user']);
    expect(repaired[2]).toEqual({ role: 'user', content: 'a\n\nb' });
  });
  test('a duplicated call id keeps one result', () => {
    const repaired = repairHistory([
      { role: 'user', content: 'x' },
      { role: 'assistant', content: '', toolCalls: [call('a')] },
      { role: 'tool', toolCallId: 'a', name: 'list', content: '1' },
      { role: 'tool', toolCallId: 'a', name: 'list', content: '2' },
    ]);
    expect(repaired.filter(message => message.role === 'tool')).toHaveLength(1);
  });
});

describe('buildRequest (behaviour 3.7)', () => {
  const fill = (turns: number, fact = 'My name is Ada.') => {
    const conversation = emptyConversation();
    for (let index = 0; index < turns; index += 1) {
      const text = index === 0 ? fact : 'ping';
      const turn = startTurn(
        conversation,
        `#${index} from HOST: "${text}"`,
        `Message #${index} from HOST: ${text}`,
      );
      turn.messages.push(
        {
          role: 'assistant',
          content: '',
          toolCalls: [
            call(
              `c${index}`,
              'reply',
              JSON.stringify({
                messageNumber: index,
                strings: [index === 0 ? 'Hello Ada' : 'pong'],
              }),
            ),
          ],
        },
        { role: 'tool', toolCallId: `c${index}`, name: 'reply', content: '{"replied":true}' },
        { role: 'assistant', content: 'Done.' },
      );
    }
    return conversation;
  };

  test('old turns fold into a digest that keeps the first fact; repeats collapse; the system prompt stays', () => {
    const conversation = fill(200);
    const { messages } = buildRequest('SYSTEM', conversation, [], {
      contextTokens: 4_000,
      keepTurns: 4,
      digestChars: 3_000,
    });
    expect(messages[0]).toEqual({ role: 'system', content: 'SYSTEM' });
    // The digest follows the system prompt in a user message of its own.
    expect(messages[1]!.role).toBe('user');
    expect(messages[1]!.content).toContain('My name is Ada.');
    expect(messages[1]!.content).toMatch(/\(19\d times\)/);
    // keepTurns finished turns plus the one in progress remain word for word.
    expect(conversation.turns).toHaveLength(5);
  });

  test('a request never exceeds the budget, and calls stay paired with their results', () => {
    const conversation = fill(3);
    const turn = startTurn(conversation, '#99 from HOST: "big"', 'Message #99: read everything');
    for (let index = 0; index < 20; index += 1) {
      turn.messages.push(
        { role: 'assistant', content: '', toolCalls: [call(`big${index}`, 'lookup')] },
        { role: 'tool', toolCallId: `big${index}`, name: 'lookup', content: 'x'.repeat(4_000) },
      );
    }
    const { messages, estimatedTokens } = buildRequest('SYSTEM', conversation, [], {
      contextTokens: 6_000,
      keepTurns: 4,
      digestChars: 3_000,
    });
    expect(estimatedTokens).toBeLessThanOrEqual(6_000);
    expect(estimateRequestTokens(messages, [])).toBe(estimatedTokens);
    const callIds = messages.flatMap(message =>
      message.role === 'assistant' ? (message.toolCalls ?? []).map(c => c.id) : [],
    );
    const resultIds = messages.flatMap(message =>
      message.role === 'tool' ? [message.toolCallId] : [],
    );
    expect(resultIds).toEqual(callIds);
    expect(messages.some(message => message.content === ELIDED_RESULT)).toBe(true);
    // The latest result is what the model acts on: it is never elided.
    expect(messages[messages.length - 1]!.content).toBe('x'.repeat(4_000));
  });
});

describe('bounds (behaviour 3.5)', () => {
  test('the repeat guard warns, refuses, then stops, and ignores key order and encoding', () => {
    const guard = makeRepeatGuard({ repeatWarnAt: 3, repeatRefuseAt: 5, repeatStopAt: 7 });
    const keyOf = (name: string, text: string) =>
      decodeCall({ id: 'c', name, arguments: text }, value => value).key;
    const spellings = ['{"a":1,"b":2}', '{ "b": 2, "a": 1 }', JSON.stringify('{"a":1,"b":2}')];
    const verdicts = [0, 1, 2, 3, 4, 5, 6].map(
      index => guard.check(keyOf('list', spellings[index % 3]!)).verdict,
    );
    expect(verdicts).toEqual(['allow', 'allow', 'warn', 'warn', 'refuse', 'refuse', 'stop']);
    expect(guard.check(keyOf('list', '{"a":2}')).verdict).toBe('allow');
    expect(guard.check(keyOf('has', '{"a":1,"b":2}')).verdict).toBe('allow');
  });
  test('a long result is cut with a marker giving its original size', () => {
    const capped = capResult('y'.repeat(2_000_000), 1_000);
    expect(capped.length).toBeLessThan(1_200);
    expect(capped).toContain('2000000 characters');
  });
});
