/**
 * Every tool call of a model reply is made fit for the history before it
 * enters it (src/loop/check-reply-calls.ts): a name no provider accepts is
 * answered with an error under a valid name, ids a model reuses are made
 * unique, and a reply with more calls than LAL_MAX_CALLS_PER_REPLY runs only
 * that many. Through make(), the daemon double and the wire doubles.
 */
import { describe, expect, test } from 'vitest';
import {
  startModelServer,
  type ModelProtocol,
  type ModelServer,
  type NormalizedRequest,
  type ScriptedReply,
} from '../sim/model-server/index.js';
import { latestMessageNumber, startAgent } from './support/agent-harness.js';
import { say } from './support/scripted-provider.js';
import { noticeNumber, useWireAgents, wireEnv } from './support/wire-agents.js';

const { keepServer, keepAgent } = useWireAgents();

const envFor = (protocol: ModelProtocol, url: string) =>
  wireEnv(protocol, url, { LAL_STOP_AFTER_ANSWER: '0' });

const startOver = async (
  protocol: ModelProtocol,
  script: (request: NormalizedRequest) => ScriptedReply,
) => {
  const server = await startModelServer({ protocol, reply: script });
  keepServer(server);
  const run = await startAgent({ realProvider: true, env: envFor(protocol, server.url) });
  keepAgent(run);
  return { server, run };
};

const chatsOf = (server: ModelServer) =>
  server.requests.filter(
    request => request.normalized !== undefined || request.errorBody !== undefined,
  );

describe.each(['anthropic', 'openai'] as const)(
  'tool calls fit for the history, over %s',
  protocol => {
    test('a call named "functions.list" is answered with an error under a valid name, and later requests are accepted', async () => {
      const { server, run } = await startOver(protocol, request => {
        if (request.index === 0) return { toolCalls: [{ name: 'functions.list', arguments: {} }] };
        if (request.index === 1)
          return {
            toolCalls: [
              {
                name: 'reply',
                arguments: { messageNumber: noticeNumber(request), strings: ['pong'] },
              },
            ],
          };
        return { text: 'Done.' };
      });
      await run.send('ping');
      await run.reply('pong');
      await expect.poll(() => run.events.some(event => event.kind === 'turn-end')).toBe(true);
      const chats = chatsOf(server);
      expect(chats.map(request => [request.status, request.errorBody])).toEqual(
        chats.map(() => [200, undefined]),
      );
      expect(chats).toHaveLength(3);
      const second = chats[1]!.normalized!;
      const call = second.messages.find(message => message.role === 'assistant')!.toolCalls![0]!;
      expect(call.name).toBe('functions_list');
      const result = second.messages.find(message => message.role === 'tool')!;
      const { error } = JSON.parse(result.text) as { error: string };
      expect(error).toMatch(/"functions\.list" is not a valid tool name/);
      expect(error).toMatch(/Did you mean "list"\?/);
      // The tool was never run under either name.
      expect(
        run.events
          .filter(event => event.kind === 'tool-call')
          .map(event => event.kind === 'tool-call' && event.name),
      ).toEqual(['reply']);
    });

    test('a call id the model reuses in a later reply is made unique, so the later call keeps its result', async () => {
      const { server, run } = await startOver(protocol, request => {
        if (request.index === 0)
          return { toolCalls: [{ id: 'call_1', name: 'listMessages', arguments: {} }] };
        if (request.index === 1) {
          return {
            toolCalls: [
              {
                id: 'call_1',
                name: 'reply',
                arguments: { messageNumber: noticeNumber(request), strings: ['pong'] },
              },
            ],
          };
        }
        return { text: 'Done.' };
      });
      await run.send('ping');
      await run.reply('pong');
      await expect.poll(() => run.events.some(event => event.kind === 'turn-end')).toBe(true);
      const chats = chatsOf(server);
      expect(chats.map(request => request.status)).toEqual([200, 200, 200]);
      const third = chats[2]!.normalized!;
      const calls = third.messages.flatMap(message => message.toolCalls ?? []);
      expect(calls.map(call => call.name)).toEqual(['listMessages', 'reply']);
      expect(new Set(calls.map(call => call.id)).size).toBe(2);
      const results = third.messages.filter(message => message.role === 'tool');
      expect(results).toHaveLength(2);
      expect(results[1]!.text).not.toMatch(/got no result/);
    });
  },
);

describe('calls per reply (LAL_MAX_CALLS_PER_REPLY)', () => {
  const flood = (count: number) => ({
    role: 'assistant' as const,
    content: '',
    toolCalls: Array.from({ length: count }, (_, index) => ({
      id: `f${index}`,
      name: 'has',
      arguments: JSON.stringify({ petNamePath: [`thing-${index}`] }),
    })),
  });

  test('a reply of 200 calls runs the first 5; the rest are answered with an error and the turn goes on', async () => {
    const run = await startAgent({
      env: { LAL_MAX_CALLS_PER_REPLY: '5' },
      steps: [
        flood(200),
        request => ({
          role: 'assistant',
          content: '',
          toolCalls: [
            {
              id: 'r1',
              name: 'reply',
              arguments: JSON.stringify({
                messageNumber: latestMessageNumber(request),
                strings: ['done'],
              }),
            },
          ],
        }),
      ],
    });
    keepAgent(run);
    await run.send('check everything');
    await run.reply('done');
    expect(
      run.events.filter(event => event.kind === 'tool-call' && event.name === 'has'),
    ).toHaveLength(5);
    const results = run.provider.requests[1]!.messages.filter(message => message.role === 'tool');
    expect(results).toHaveLength(200);
    expect(results.slice(0, 5).every(result => !result.content.includes('not run'))).toBe(true);
    expect(
      results
        .slice(5)
        .every(result => /not run: one reply may make at most 5 tool calls/.test(result.content)),
    ).toBe(true);
    expect(results[5]!.content).toMatch(/call 6 of 200/);
  });

  test('the default is 16', async () => {
    const run = await startAgent({ steps: [flood(20), say('checked')] });
    keepAgent(run);
    await run.send('check everything');
    await run.reply('checked');
    expect(
      run.events.filter(event => event.kind === 'tool-call' && event.name === 'has'),
    ).toHaveLength(16);
  });
});
