/**
 * A model server that takes the connection and the request but never sends its response headers
 * (issue 45), for each API the agent speaks, through make() at the wire: the turn is bounded by
 * LAL_REQUEST_TIMEOUT_MS an attempt, retried LAL_MAX_RETRIES times, and then fails, the sender
 * told in one line naming the settings and how many attempts waited that long (so a sender who
 * waited three times the limit knows why: docs/behaviour.md 7.7, docs/troubleshooting.md). The
 * OpenAI and Anthropic SDKs' own timeouts run until the headers come; Ollama's attempt is timed
 * by providers/ollama-attempt.ts from before its request. A stream that stops after the headers
 * is test/providers-stall-watch.test.ts's.
 */
import { describe, expect, test } from 'vitest';
import { textOf } from './support/agent-harness.js';
import { useAgents } from './support/use-agents.js';
import { useRawServer } from './support/raw-http-server.js';

const { start } = useAgents();
const { serve } = useRawServer();

const TIMEOUT_MS = 300;
const API: Record<string, { service: string; path: string; models: unknown }> = {
  openai: {
    service: 'OpenAI-compatible server',
    path: '/v1',
    models: { object: 'list', data: [{ id: 'm', object: 'model' }] },
  },
  anthropic: {
    service: 'Anthropic',
    path: '',
    models: { data: [{ id: 'm', type: 'model' }], has_more: false },
  },
  ollama: { service: 'Ollama', path: '', models: { models: [{ name: 'm', model: 'm' }] } },
};

describe('a model server that never sends response headers', () => {
  for (const [provider, { service, path, models }] of Object.entries(API))
    test(`${provider}: each attempt gives up after LAL_REQUEST_TIMEOUT_MS, and the sender is told in one line`, async () => {
      let chats = 0;
      // Its model list is answered (the start-up check), a chat never: the request is read, nothing is sent.
      const url = await serve((request, response) => {
        if (request.method === 'GET') {
          response.writeHead(200, { 'content-type': 'application/json' });
          response.end(JSON.stringify(models));
          return;
        }
        chats += 1;
      });
      const run = await start({
        realProvider: true,
        env: {
          ...{ LAL_PROVIDER: provider, LAL_HOST: `${url}${path}`, LAL_MODEL: 'm' },
          ...{ LAL_AUTH_TOKEN: 'test-key-0000', LAL_REQUEST_TIMEOUT_MS: String(TIMEOUT_MS) },
          LAL_MAX_RETRIES: '1',
        },
      });
      await run.send('ping');
      const told = textOf(await run.reply(/^I stopped working on this/));
      expect(told).toMatch(
        new RegExp(
          `^I stopped working on this: the model failed: ${service} at http://127\\.0\\.0\\.1:\\d+\\S* did not answer within ${TIMEOUT_MS} ms, 2 attempts \\(\`LAL_REQUEST_TIMEOUT_MS\` each, \`LAL_MAX_RETRIES\`\\)\\. `,
        ),
      );
      expect(told).not.toContain('\n');
      // The first attempt and its one retry, no more.
      expect(chats).toBe(2);
      // The agent goes on: the next message is taken up (and meets the same server).
      await run.send('ping again');
      await run.reply(/^I stopped working on this/);
    });
});
