/**
 * A history prompt caches can reuse: the system prompt never changes, the
 * digest of old turns sits after it in a user message of its own, and
 * between folds each request is the previous one plus what was appended;
 * turns fold in blocks, so few requests rewrite the beginning, and the
 * budget holds at every request.
 */
import { describe, expect, test } from 'vitest';
import { E } from '@endo/far';
import type { ChatMessage } from '../providers/types.js';
import { buildRequest } from '../src/history/build-request.js';
import { emptyConversation, startTurn, type Conversation } from '../src/history/conversation.js';
import { renderDigest } from '../src/history/digest.js';
import { showToHost } from '../src/history/threads.js';
import { systemPrompt } from '../src/prompt/system-prompt.js';
import { replyStep, startAgent } from './support/agent-harness.js';

const call = (id: string, name: string, args: unknown) => ({
  id,
  name,
  arguments: JSON.stringify(args),
});

/** One exchange as the agent records it: the notice, the reply call and its result. */
const exchange = (conversation: Conversation, index: number) => {
  const turn = startTurn(
    conversation,
    `#${index} from HOST: "question ${index}"`,
    `Message #${index} from HOST: question ${index}`,
  );
  return () =>
    turn.messages.push(
      {
        role: 'assistant',
        content: '',
        toolCalls: [
          call(`c${index}`, 'reply', { messageNumber: index, strings: [`answer ${index}`] }),
        ],
      },
      { role: 'tool', toolCallId: `c${index}`, name: 'reply', content: '{"replied":true}' },
    );
};

const startsWith = (request: readonly ChatMessage[], previous: readonly ChatMessage[]): boolean =>
  previous.length <= request.length &&
  previous.every((message, index) => JSON.stringify(message) === JSON.stringify(request[index]));

describe('a cache-friendly history', () => {
  test('the system prompt is the same at every request; the digest is a user message after it, never a second system message', () => {
    const conversation = emptyConversation();
    const budget = { contextTokens: 24_000, keepTurns: 4, digestChars: 3_000 };
    for (let index = 0; index < 30; index += 1) {
      const finish = exchange(conversation, index);
      const { messages } = buildRequest('SYSTEM', conversation, [], budget);
      expect(messages[0]).toEqual({ role: 'system', content: 'SYSTEM' });
      expect(messages.filter(message => message.role === 'system')).toHaveLength(1);
      if (conversation.digest.length > 0) {
        expect(messages[1]?.role).toBe('user');
        expect(messages[1]?.content).toMatch(/^\[Digest of the earlier conversation/);
        expect(messages[1]?.content).toContain('#0 from HOST: "question 0" → replied "answer 0"');
      }
      finish();
    }
  });

  test('between folds each request is the previous one plus what was appended; turns fold in blocks', () => {
    const conversation = emptyConversation();
    const keepTurns = 4;
    const budget = { contextTokens: 24_000, keepTurns, digestChars: 3_000 };
    let previous: ChatMessage[] = [];
    let rewrites = 0;
    const exchanges = 200;
    for (let index = 0; index < exchanges; index += 1) {
      const finish = exchange(conversation, index);
      const { messages, estimatedTokens } = buildRequest('SYSTEM', conversation, [], budget);
      expect(estimatedTokens).toBeLessThanOrEqual(budget.contextTokens);
      if (!startsWith(messages, previous)) rewrites += 1;
      // At least keepTurns finished turns stay word for word, at most twice as many.
      const finished = conversation.turns.length - 1;
      if (index >= keepTurns) expect(finished).toBeGreaterThanOrEqual(keepTurns);
      expect(finished).toBeLessThanOrEqual(2 * keepTurns);
      previous = messages;
      finish();
    }
    // One fold every keepTurns + 1 exchanges, after the first 2 × keepTurns.
    expect(rewrites).toBe(Math.floor((exchanges - 1 - 2 * keepTurns) / (keepTurns + 1)) + 1);
    expect(rewrites / exchanges).toBeLessThanOrEqual(0.25);
  });

  test("once the digest is full, a fold keeps the previous digest whole in most requests: its middle goes in blocks (the HOST's thread, with others' lines)", () => {
    // As in bench figure 9: each HOST exchange is followed by two peers' lines in the HOST's thread,
    // whose folds add a "meanwhile" line, so the HOST's digest fills sooner than a peer's.
    const conversation = emptyConversation();
    const budget = { contextTokens: 24_000, keepTurns: 4, digestChars: 3_000 };
    let previousDigest = '';
    let folds = 0;
    let middleRewrites = 0;
    let trimmed = false;
    for (let index = 0; index < 300; index += 1) {
      const finish = exchange(conversation, index);
      buildRequest('SYSTEM', conversation, [], budget);
      const digest = renderDigest(conversation);
      if (digest !== previousDigest) {
        folds += 1;
        // A fold appends its lines: a request that starts with the whole previous digest loses only the turns folded.
        if (!digest.startsWith(previousDigest)) middleRewrites += 1;
      }
      trimmed ||= conversation.omitted > 0;
      previousDigest = digest;
      finish();
      for (const peer of ['bob', 'carol'])
        showToHost(
          conversation,
          {
            title: `#${index} from ${peer}: "ping ${index}"`,
            messages: [{ role: 'user', content: 'ping' }],
          },
          peer,
          BigInt(index),
          Date.UTC(2026, 10, 23) + index * 60_000,
        );
    }
    expect(trimmed).toBe(true);
    expect(folds).toBeGreaterThan(40);
    // The digest's middle goes at most once in three folds; the rest append to it.
    expect(middleRewrites).toBeLessThanOrEqual(folds / 3);
  });

  test('over budget, more turns fold at once and the request still fits', () => {
    const conversation = emptyConversation();
    const budget = { contextTokens: 1_500, keepTurns: 4, digestChars: 3_000 };
    for (let index = 0; index < 40; index += 1) {
      const turn = startTurn(
        conversation,
        `#${index} from HOST: "long"`,
        `Message #${index}: ${'words '.repeat(200)}`,
      );
      const { estimatedTokens } = buildRequest('SYSTEM', conversation, [], budget);
      expect(estimatedTokens).toBeLessThanOrEqual(budget.contextTokens);
      turn.messages.push({ role: 'assistant', content: 'ok' });
    }
  });
});

describe("the HOST's requests through make()", () => {
  test('once the digest is full, its middle goes in blocks: two folds in a row never both rewrite it', async () => {
    // Small settings make a full digest in a few dozen pings: a fold every other request.
    const pings = 40;
    const run = await startAgent({
      env: { LAL_KEEP_TURNS: '1', LAL_DIGEST_CHARS: '600' },
      steps: Array.from({ length: pings }, (_, index) => replyStep(`pong ${index + 1}`)),
    });
    for (let index = 1; index <= pings; index += 1) {
      await run.send(`ping ${index}`);
      await run.reply(`pong ${index}`);
    }
    // The digest leads the first user message; the turns kept follow it after a blank line.
    const digests = run.provider.requests.map(request => {
      const content = request.messages[1]?.content ?? '';
      return content.startsWith('[Digest') ? content.split('\n\n')[0]! : '';
    });
    const folds: boolean[] = [];
    digests.forEach((digest, index) => {
      const previous = digests[index - 1] ?? '';
      if (index > 0 && digest !== previous) folds.push(!digest.startsWith(previous));
    });
    expect(digests.at(-1)).toContain('more earlier exchanges left out');
    expect(folds.length).toBeGreaterThan(15);
    expect(folds.some((rewrote, index) => rewrote && folds[index - 1] === true)).toBe(false);
    await run.cancel();
  });
});

describe('a conversation stored by the previous release', () => {
  // Written by the release before this one (digest rendered inside the system text), byte for byte.
  const storedBefore = JSON.stringify({
    version: 1,
    conversation: {
      digest: [
        { text: '#1 from HOST: "My name is Ada." → replied "Hello Ada"', count: 1 },
        { text: '#3 from HOST: "ping" → replied "pong"', count: 4 },
      ],
      omitted: 0,
      turns: [
        {
          title: '#13 from HOST: "what is my name?"',
          messages: [
            { role: 'user', content: 'Message #13 from HOST: what is my name?' },
            {
              role: 'assistant',
              content: '',
              toolCalls: [
                {
                  id: 'call_a_1',
                  name: 'reply',
                  arguments: '{"messageNumber":13,"strings":["Ada"]}',
                },
              ],
            },
            { role: 'tool', toolCallId: 'call_a_1', name: 'reply', content: '{"replied":true}' },
          ],
        },
      ],
    },
    handled: ['lal:13'],
  });

  test('loads after the upgrade and continues, with the digest after the system prompt', async () => {
    const run = await startAgent({
      steps: [replyStep('still here')],
      prepare: async (host, name) => {
        const guest = await E(host.host).lookup(`profile-for-${name}`);
        await E(guest as { storeValue(value: unknown, name: string): Promise<void> }).storeValue(
          storedBefore,
          'agent-memory',
        );
      },
    });
    await run.send('are you there?');
    await run.reply('still here');
    const [request] = run.provider.requests;
    expect(request?.messages[0]).toEqual({ role: 'system', content: systemPrompt('lal') });
    expect(request?.messages[1]?.role).toBe('user');
    // Conservatively labelled (docs/behaviour.md 9.11): the HOST's words and what was done stay,
    // the words nobody can tell were the HOST's (the model's, after whatever it read) do not.
    expect(request?.messages[1]?.content).toContain('#1 from HOST: "My name is Ada." → replied …');
    expect(request?.messages[1]?.content).toContain('(4 times) #3 from HOST: "ping"');
    expect(request?.messages[1]?.content).not.toContain('Hello Ada');
    // The stored turn keeps the HOST's message and what was done, and the new message follows it.
    expect(JSON.stringify(request?.messages)).toContain('what is my name?');
    expect(JSON.stringify(request?.messages)).toMatch(/the agent did: replied\./);
    expect(request?.messages.at(-1)?.content).toContain('are you there?');
    await run.cancel();
  });
});

describe('the critical path', () => {
  test('once warm, the only daemon call between a message and its reply is the reply; the memory is written after it', async () => {
    const run = await startAgent({ steps: [replyStep('pong'), replyStep('pong again')] });
    await run.send('ping');
    await run.reply('pong');
    await expect.poll(() => run.events.filter(event => event.kind === 'turn-end').length).toBe(1);
    const calls: string[] = [];
    let replied = false;
    const stop = run.host.traceCalls(run.name, method => {
      if (!replied) calls.push(method);
      if (method === 'reply') replied = true;
    });
    const after: string[] = [];
    const stopAfter = run.host.traceCalls(run.name, method => {
      if (replied) after.push(method);
    });
    await run.send('ping again');
    await run.reply('pong again');
    await expect.poll(() => after.includes('storeValue')).toBe(true);
    stop();
    stopAfter();
    expect(calls).toEqual(['reply']);
    await run.cancel();
  });
});
