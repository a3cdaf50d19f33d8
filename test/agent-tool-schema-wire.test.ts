/**
 * FaeTool schemas are normalised for the providers (behaviour 6.3): a
 * tool whose parameter schema is plain JSON but in a shape a service
 * rejects is repaired, so the request (every tool with it) is accepted; one
 * whose parameters are not an object is refused and the others are offered.
 * Through the real SDKs and the wire doubles, which reject what each
 * service rejects.
 */
import { describe, expect, test } from 'vitest';
import { E } from '@endo/far';
import { makeMailHost } from '../sim/mail-host/index.js';
import { startModelServer, type ModelProtocol } from '../sim/model-server/index.js';
import { startAgent } from './support/agent-harness.js';
import { useWireAgents } from './support/wire-agents.js';

const oddToolUrl = new URL('./support/odd-schema-tool.ts', import.meta.url).href;
const mathUrl = new URL('../tools/math.ts', import.meta.url).href;

const { keepServer, keepAgent } = useWireAgents();

/** The parameters a request body gave the tool of this name, whatever the protocol. */
const parametersSent = (body: unknown, name: string): Record<string, unknown> | undefined => {
  const tools = (body as { tools?: Record<string, unknown>[] }).tools ?? [];
  for (const tool of tools) {
    const fn = tool.function as { name?: string; parameters?: Record<string, unknown> } | undefined;
    if (fn?.name === name) return fn.parameters;
    if (tool.name === name) return tool.input_schema as Record<string, unknown>;
  }
  return undefined;
};

describe.each(['openai', 'anthropic', 'ollama'] as const)(
  'tool schemas over %s',
  (protocol: ModelProtocol) => {
    test('a loose schema is repaired so the request is accepted; parameters that are not an object are refused', async () => {
      const server = await startModelServer({
        protocol,
        reply: request => ({
          text: `offered: ${request.toolNames
            .filter(name => name === 'math' || name.startsWith('odd'))
            .sort()
            .join(',')}`,
        }),
      });
      keepServer(server);
      const host = makeMailHost();
      await E(host.host).makeUnconfined('worker-math', mathUrl, {
        resultName: 'math-tool',
        env: {},
      });
      await E(host.host).makeUnconfined('worker-loose', oddToolUrl, {
        resultName: 'loose',
        env: { TOOL_NAME: 'odd_loose', SCHEMA: 'loose' },
      });
      await E(host.host).makeUnconfined('worker-string', oddToolUrl, {
        resultName: 'stringy',
        env: { TOOL_NAME: 'odd_string', SCHEMA: 'no-object' },
      });
      const run = await startAgent({
        host,
        persona: 'fae',
        realProvider: true,
        introducedNames: { 'math-tool': 'math-tool', loose: 'loose', stringy: 'stringy' },
        env: {
          LAL_HOST: server.url,
          LAL_PROVIDER: protocol,
          LAL_MODEL: 'test-model',
          LAL_AUTH_TOKEN: 'test-key-123456',
          LAL_MAX_RETRIES: '0',
        },
      });
      keepAgent(run);
      await run.send('what tools?');
      await run.reply('offered: math,odd_loose');
      const chat = server.requests.find(request => request.normalized !== undefined)!;
      expect(chat.status).toBe(200);
      const sent = parametersSent(chat.body, 'odd_loose')!;
      expect(sent).toMatchObject({
        type: 'object',
        required: ['text'],
        additionalProperties: false,
      });
      expect(sent).not.toHaveProperty('anyOf');
      expect(sent.properties).toEqual({ text: { type: 'string' }, count: {}, flag: {} });
      expect(await run.help()).toMatch(
        /tools\/stringy: its parameters are of type "string"; a tool's parameters must be an object/,
      );
    });
  },
);
