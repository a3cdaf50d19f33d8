/**
 * Histories with odd parts, sent by the real SDKs to the doubles, which
 * refuse what each service refuses (Anthropic: no empty text block, tool ids
 * only of [a-zA-Z0-9_-]). Empty texts in any role, an empty tool result and a
 * call id some other service left empty must still make a request the
 * service takes; a message of a role no service knows (a store written by
 * something else) is refused before anything is sent.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createProvider } from '../providers/create-provider.js';
import type { ChatMessage } from '../providers/types.js';
import { scriptedReplies, startModelServer } from '../sim/model-server/index.js';
import type { ModelProtocol, ModelServer } from '../sim/model-server/index.js';

let server: ModelServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const providerFor = (running: ModelServer) =>
  createProvider({
    LAL_HOST: running.url,
    LAL_PROVIDER: running.protocol,
    LAL_AUTH_TOKEN: 'sk-odd-0000',
    LAL_MODEL: 'double-model',
    LAL_MAX_RETRIES: '0',
  });

describe.each(['anthropic', 'openai', 'ollama'] as const)('%s', (protocol: ModelProtocol) => {
  it('takes a history with empty texts in every role and an empty tool result', async () => {
    server = await startModelServer({ protocol, reply: scriptedReplies([{ text: 'pong' }]) });
    const history: ChatMessage[] = [
      { role: 'system', content: 'You are Lal.' },
      { role: 'user', content: 'list' },
      {
        role: 'assistant',
        content: '',
        toolCalls: [
          { id: protocol === 'anthropic' ? '' : 'call_1', name: 'list', arguments: '{}' },
        ],
      },
      {
        role: 'tool',
        toolCallId: protocol === 'anthropic' ? '' : 'call_1',
        name: 'list',
        content: '',
      },
      { role: 'system', content: '' },
      { role: 'user', content: '' },
      { role: 'user', content: 'and now?' },
    ];
    const result = await providerFor(server).chat(history, []);
    expect(result.message.content).toBe('pong');
    expect(server.requests[0]?.status).toBe(200);
    const seen = server.requests[0]!.normalized!.messages;
    expect(
      seen
        .filter(message => message.role === 'assistant')
        .map(message => message.toolCalls?.map(call => call.name)),
    ).toEqual([['list']]);
    expect(seen.at(-1)?.text).toContain('and now?');
    if (protocol === 'anthropic') {
      // An empty id from elsewhere becomes one Anthropic accepts, the same on both sides.
      expect(seen.find(message => message.role === 'tool')?.toolCallId).toBe('call');
    }
  });

  it('refuses a message of a role no service knows, sending nothing', async () => {
    server = await startModelServer({ protocol, reply: scriptedReplies([{ text: 'never' }]) });
    const stored = [
      { role: 'user', content: 'hi' },
      { role: 'developer', content: 'be brief' },
    ] as unknown as ChatMessage[];
    const refused = providerFor(server).chat(stored, []);
    // The role, quoted (Fail/q, @endo/errors); never the message's own text.
    await expect(refused).rejects.toThrow(/^Unknown message role "developer"$/);
    await expect(refused).rejects.not.toThrow(/be brief/);
    expect(server.requests).toHaveLength(0);
  });
});
