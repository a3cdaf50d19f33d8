/**
 * The fallback chain as the agent uses it, through make() under lockdown
 * and the real SDKs: the primary fails mid-turn, the turn goes on at the
 * fallback (another protocol, the history converted and accepted), the turn
 * and help() say which model served, and the greeting names both.
 */
import { expect, test } from 'vitest';
import {
  startModelServer,
  type NormalizedRequest,
  type ScriptedReply,
} from '../sim/model-server/index.js';
import { startAgent, textOf } from './support/agent-harness.js';
import { useWireAgents } from './support/wire-agents.js';

const { keepServer, keepAgent } = useWireAgents();

const noticeNumber = (request: NormalizedRequest): number => {
  const users = request.messages.filter(message => message.role === 'user');
  const found = [
    ...users
      .map(message => message.text)
      .join('\n')
      .matchAll(/#(\d+)/g),
  ].pop();
  if (found === undefined) throw new Error('no notice');
  return Number(found[1]);
};

test('a primary that starts failing mid-turn hands the turn to the fallback, which answers the sender', async () => {
  const primary = await startModelServer({
    protocol: 'openai',
    models: ['gpt-local'],
    reply: (request): ScriptedReply =>
      request.index === 0
        ? { toolCalls: [{ name: 'list', arguments: {} }] }
        : { failure: { status: 503, message: 'overloaded' } },
  });
  const fallback = await startModelServer({
    protocol: 'anthropic',
    models: ['claude-backup'],
    apiKey: 'sk-fallback-0123456789',
    reply: (request): ScriptedReply => ({
      toolCalls: [
        {
          name: 'reply',
          arguments: { messageNumber: noticeNumber(request), strings: ['pong from the fallback'] },
        },
      ],
    }),
  });
  keepServer(primary);
  keepServer(fallback);
  const run = await startAgent({
    realProvider: true,
    env: {
      LAL_HOST: primary.url,
      LAL_MAX_RETRIES: '0',
      LAL_FALLBACK: `${fallback.url}||SPARE_CREDENTIAL|anthropic`,
      SPARE_CREDENTIAL: 'sk-fallback-0123456789',
    },
  });
  keepAgent(run);
  expect(textOf(run.greeting!)).toMatch(
    /I think with gpt-local \(openai\), the only model the server lists\..* If it fails I fall back to claude-backup at http:\/\/127\.0\.0\.1:\d+\./,
  );
  await run.send('ping');
  // However long the two servers take (a loaded machine), the turn's end is the moment to look.
  const end = await run.untilEvent(event => event.kind === 'turn-end');
  await run.reply('pong from the fallback');
  // The fallback accepted the history the primary's turn began (a tool call and its result).
  const handedOver = fallback.requests.find(request => request.method === 'POST')!;
  expect(handedOver.status).toBe(200);
  expect(handedOver.normalized!.messages.map(message => message.role)).toContain('tool');
  expect(end).toMatchObject({ models: ['gpt-local', 'claude-backup'] });
  const help = await run.help();
  expect(help).toMatch(/- gpt-local: 1 call/);
  expect(help).toMatch(/- claude-backup: 1 call/);
  // The fallback's token, whatever its variable is called, is in no log line.
  expect(run.logs.join('\n')).not.toContain('sk-fallback-0123456789');
  expect(run.logs.join('\n')).toMatch(/switched to claude-backup/);
});
