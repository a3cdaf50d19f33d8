/**
 * Whole agent turns through the real SDKs and the wire-level doubles of
 * each service: the history our loop produces must be one the service
 * accepts, and a failing service must not hang the agent.
 */
import { describe, expect, test } from 'vitest';
import {
  startModelServer,
  type ModelProtocol,
  type NormalizedRequest,
  type ScriptedReply,
} from '../sim/model-server/index.js';
import { startAgent } from './support/agent-harness.js';
import { noticeNumber, useWireAgents, wireEnv } from './support/wire-agents.js';

const { keepServer, keepAgent } = useWireAgents();

// The model has the last word, so the follow-up history (calls and results) goes over the wire.
const envFor = (protocol: ModelProtocol, url: string) =>
  wireEnv(protocol, url, { LAL_LOG: 'debug', LAL_STOP_AFTER_ANSWER: '0' });

describe.each(['openai', 'anthropic', 'ollama'] as const)('a whole turn over %s', protocol => {
  test('ping → two tool calls in one reply → pong, and the history is accepted', async () => {
    const script = (request: NormalizedRequest): ScriptedReply => {
      if (request.index === 0) {
        const number = noticeNumber(request);
        return {
          toolCalls: [
            { name: 'listMessages', arguments: {} },
            { name: 'reply', arguments: { messageNumber: number, strings: ['pong'] } },
          ],
        };
      }
      return { text: 'Done.' };
    };
    const server = await startModelServer({ protocol, reply: script });
    keepServer(server);
    const run = await startAgent({ realProvider: true, env: envFor(protocol, server.url) });
    keepAgent(run);
    await run.send('ping');
    await run.reply('pong');
    await expect.poll(() => run.events.some(event => event.kind === 'turn-end')).toBe(true);
    const chats = server.requests.filter(request => request.normalized !== undefined);
    expect(chats.map(request => [request.status, request.errorBody])).toEqual(
      chats.map(() => [200, undefined]),
    );
    expect(chats).toHaveLength(2);
    const second = chats[1]!.normalized!;
    expect(second.messages.filter(message => message.role === 'tool')).toHaveLength(2);
    expect(second.toolNames).toContain('reply');
    expect(run.logs.join('\n')).not.toContain('test-key-123456');
  });

  test('a service that keeps failing: the sender is told and the next message is served', async () => {
    let failing = true;
    const server = await startModelServer({
      protocol,
      reply: () =>
        failing ? { failure: { status: 500, message: 'overloaded' } } : { text: 'pong' },
    });
    keepServer(server);
    const run = await startAgent({ realProvider: true, env: envFor(protocol, server.url) });
    keepAgent(run);
    await run.send('ping');
    await run.reply(/I stopped working on this: the model failed/);
    failing = false;
    await run.send('ping again');
    await run.reply('pong');
  });
});
