/**
 * The daemon's worker applies SES lockdown before it imports a caplet. This
 * proves each SDK can be imported and used after lockdown: the setup file has
 * already locked down, nothing here imports an SDK statically, and the
 * providers import theirs on first use (which is what runs below).
 */
import { afterAll, describe, expect, it } from 'vitest';
import { createProvider } from '../providers/create-provider.js';
import { scriptedReplies, startModelServer } from '../sim/model-server/index.js';
import type { ModelProtocol, ModelServer } from '../sim/model-server/index.js';

const servers: ModelServer[] = [];
afterAll(async () => {
  await Promise.all(servers.map(server => server.close()));
});

describe('the SDKs under SES lockdown', () => {
  it('runs after lockdown: intrinsics are frozen and harden is global', () => {
    expect(Object.isFrozen(Object.prototype)).toBe(true);
    expect(Object.isFrozen(Array.prototype)).toBe(true);
    expect(typeof harden).toBe('function');
  });

  it.each([
    ['openai', 'OpenAI'],
    ['@anthropic-ai/sdk', 'Anthropic'],
    ['ollama', 'Ollama'],
  ])('imports %s after lockdown', async (specifier, exportName) => {
    const module = (await import(specifier)) as Record<string, unknown>;
    expect(typeof module[exportName]).toBe('function');
  });

  it.each(['openai', 'anthropic', 'ollama'] as ModelProtocol[])(
    'makes a real call through the %s SDK after lockdown',
    async protocol => {
      const server = await startModelServer({
        protocol,
        reply: scriptedReplies([{ text: `hello from ${protocol}` }]),
      });
      servers.push(server);
      const provider = createProvider({
        LAL_HOST: server.url,
        LAL_PROVIDER: protocol,
        LAL_AUTH_TOKEN: 'k-123456',
      });
      expect(Object.isFrozen(provider)).toBe(true);
      // The agent hands over hardened (frozen) transcripts and schemas.
      const messages = harden([
        { role: 'system' as const, content: 'Be brief.' },
        { role: 'user' as const, content: 'hi' },
      ]);
      const tools = harden([
        {
          type: 'function' as const,
          function: {
            name: 'list',
            description: 'List names.',
            parameters: { type: 'object', properties: {} },
          },
        },
      ]);
      const result = await provider.chat(messages, tools);
      expect(result.message.content).toBe(`hello from ${protocol}`);
    },
  );
});
