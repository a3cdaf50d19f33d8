/**
 * Provider prompt caching at the wire: what each provider asks of the
 * service's cache (Anthropic cache_control breakpoints, OpenAI
 * prompt_cache_key, llama.cpp cache_prompt), that the doubles accept it as
 * the services would and reject what they would reject, and that the cached
 * input tokens a server reports reach the usage of a call and of a turn.
 */
import { describe, expect, it } from 'vitest';
import { createProvider } from '../providers/create-provider.js';
import { withCacheBreakpoints } from '../providers/anthropic-cache.js';
import { cachedInputTokens } from '../providers/openai-cache.js';
import type { ChatMessage, ToolSchema } from '../providers/types.js';
import { scriptedReplies, startModelServer } from '../sim/model-server/index.js';
import type {
  ModelProtocol,
  ModelServer,
  NormalizedRequest,
  ScriptedReply,
} from '../sim/model-server/index.js';
import { startAgent } from './support/agent-harness.js';
import { useWireAgents } from './support/wire-agents.js';

const TOKEN = 'sk-test-cache-token-4321';
const { keepServer, keepAgent } = useWireAgents();

const start = async (protocol: ModelProtocol, replies: ScriptedReply[]) => {
  const server = await startModelServer({ protocol, reply: scriptedReplies(replies) });
  keepServer(server);
  return server;
};

const tool = (name: string): ToolSchema => ({
  type: 'function',
  function: {
    name,
    description: `The ${name} tool.`,
    parameters: { type: 'object', properties: { x: { type: 'string' } } },
  },
});
const tools = [tool('reply'), tool('list'), tool('lookup')];
const system = `You are Lal. ${'Long and stable instructions. '.repeat(40)}`;
const first: ChatMessage[] = [
  { role: 'system', content: system },
  { role: 'user', content: '#3 from HOST: "ping"' },
];
// The next request is the first one plus what was appended.
const second: ChatMessage[] = [
  ...first,
  { role: 'assistant', content: 'pong' },
  { role: 'user', content: '#5 from HOST: "and again"' },
];

const providerFor = (server: ModelServer, protocol: ModelProtocol) =>
  createProvider({
    LAL_HOST: server.url,
    LAL_PROVIDER: protocol,
    LAL_AUTH_TOKEN: TOKEN,
    LAL_MODEL: 'double-model',
  });

/** Where a request body carries cache_control, as paths. */
const breakpoints = (body: unknown, at = ''): string[] => {
  if (body === null || typeof body !== 'object') return [];
  return Object.entries(body as Record<string, unknown>).flatMap(([key, value]) =>
    key === 'cache_control' ? [at] : breakpoints(value, at === '' ? key : `${at}.${key}`),
  );
};

describe('Anthropic prompt caching', () => {
  it('marks the tools, the system prompt and the last message, and reads the cached prefix back as usage', async () => {
    const server = await start('anthropic', [{ text: 'pong' }, { text: 'pong again' }]);
    const provider = providerFor(server, 'anthropic');
    const one = await provider.chat(first, tools);
    const two = await provider.chat(second, tools);
    expect(server.requests.map(request => request.status)).toEqual([200, 200]);
    const body = server.requests[1]?.body as { messages: unknown[]; system: unknown };
    expect(breakpoints(body)).toEqual([
      'system.0',
      `messages.${body.messages.length - 1}.content.0`,
      'tools.2',
    ]);
    expect(body.system).toEqual([
      { type: 'text', text: system, cache_control: { type: 'ephemeral' } },
    ]);
    // The first request wrote the cache; the second read the tools, system and first message from it.
    expect(one.usage?.cachedInputTokens).toBe(0);
    expect(two.usage?.cachedInputTokens).toBeGreaterThan(0);
    expect(two.usage?.cachedInputTokens).toBeLessThan(two.usage?.inputTokens ?? 0);
  });

  it('has a double that rejects what the service rejects: a fifth breakpoint, an unknown cache type', async () => {
    const server = await start('anthropic', [{ text: 'never sent' }]);
    const marked = { type: 'text', text: 'hi', cache_control: { type: 'ephemeral' } };
    const post = (body: unknown) =>
      fetch(`${server.url}/v1/messages`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'x-api-key': TOKEN,
          'anthropic-version': '2023-06-01',
        },
        body: JSON.stringify({ model: 'double-model', max_tokens: 10, ...(body as object) }),
      });
    const five = await post({
      system: [marked, marked],
      messages: [{ role: 'user', content: [marked, marked, marked] }],
    });
    expect(five.status).toBe(400);
    expect(((await five.json()) as { error: { message: string } }).error.message).toMatch(
      /maximum of 4 blocks with cache_control.*Found 5/,
    );
    const wrongType = await post({
      messages: [{ role: 'user', content: [{ ...marked, cache_control: { type: 'forever' } }] }],
    });
    expect(wrongType.status).toBe(400);
    const four = await post({
      system: [marked],
      messages: [{ role: 'user', content: [marked, marked, marked] }],
    });
    expect(four.status).toBe(200);
  });
});

describe('Anthropic breakpoints on messages of every shape', () => {
  const listTool = {
    name: 'list',
    description: 'List.',
    input_schema: { type: 'object' as const, properties: {} },
  };
  it('a text-only last message becomes a marked block; a thinking block is never marked; no messages, no message breakpoint', () => {
    const text = withCacheBreakpoints({
      system: 'S',
      messages: [{ role: 'user', content: 'hello' }],
      tools: [listTool],
    });
    expect(text.messages).toEqual([
      {
        role: 'user',
        content: [{ type: 'text', text: 'hello', cache_control: { type: 'ephemeral' } }],
      },
    ]);
    const thinking = {
      role: 'assistant' as const,
      content: [{ type: 'thinking' as const, thinking: 'hmm', signature: 's' }],
    };
    expect(
      withCacheBreakpoints({ system: undefined, messages: [thinking], tools: [] }).messages,
    ).toEqual([thinking]);
    const none = withCacheBreakpoints({ system: 'S', messages: [], tools: [listTool] });
    expect(none.messages).toEqual([]);
    expect(none.system).toEqual([
      { type: 'text', text: 'S', cache_control: { type: 'ephemeral' } },
    ]);
    expect(none.tools?.[0]).toMatchObject({ name: 'list', cache_control: { type: 'ephemeral' } });
  });
});

describe('OpenAI-compatible prompt caching', () => {
  it('keeps one prompt_cache_key for a conversation, asks llama.cpp to cache_prompt, and reads timings.cache_n', async () => {
    const server = await start('openai', [{ text: 'pong' }, { text: 'pong again' }]);
    const provider = providerFor(server, 'openai');
    const one = await provider.chat(first, tools);
    const two = await provider.chat(second, tools);
    const bodies = server.requests.map(request => request.body as Record<string, unknown>);
    expect(bodies.map(body => body.cache_prompt)).toEqual([true, true]);
    expect(typeof bodies[0]?.prompt_cache_key).toBe('string');
    expect(bodies[1]?.prompt_cache_key).toBe(bodies[0]?.prompt_cache_key);
    expect(one.usage?.cachedInputTokens).toBe(0);
    expect(two.usage?.cachedInputTokens).toBeGreaterThan(0);
    expect(two.usage?.cachedInputTokens).toBeLessThan(two.usage?.inputTokens ?? 0);
  });

  it('sends OpenAI itself no cache_prompt (it rejects unknown fields), only the prompt_cache_key', async () => {
    const server = await start('openai', [{ text: 'pong' }]);
    // The SDK talks to api.openai.com; the request is carried to the double on loopback.
    const toDouble: typeof fetch = (input, init) =>
      fetch(
        String(input instanceof Request ? input.url : input).replace(
          'https://api.openai.com/v1',
          server.url,
        ),
        init,
      );
    const provider = createProvider(
      {
        LAL_HOST: 'https://api.openai.com/v1',
        LAL_PROVIDER: 'openai',
        LAL_AUTH_TOKEN: TOKEN,
        LAL_MODEL: 'double-model',
      },
      { fetch: toDouble },
    );
    await provider.chat(first, tools);
    const body = server.requests[0]?.body as Record<string, unknown>;
    expect(server.requests[0]?.status).toBe(200);
    expect(body).not.toHaveProperty('cache_prompt');
    expect(typeof body.prompt_cache_key).toBe('string');
  });

  it('reads OpenAI prompt_tokens_details.cached_tokens before llama.cpp timings, and nothing when neither is there', () => {
    expect(
      cachedInputTokens({ prompt_tokens_details: { cached_tokens: 1024 } }, { cache_n: 7 }),
    ).toBe(1024);
    expect(cachedInputTokens({}, { cache_n: 7, prompt_n: 3 })).toBe(7);
    expect(cachedInputTokens({ prompt_tokens_details: null }, undefined)).toBeUndefined();
  });
});

describe('cached tokens in the turn', () => {
  it.each(['openai', 'anthropic'] as const)(
    'a turn over %s reports the cached input tokens the server reported',
    async protocol => {
      const script = (request: NormalizedRequest): ScriptedReply => {
        const users = request.messages.filter(message => message.role === 'user');
        const number = Number([...(users.at(-1)?.text ?? '').matchAll(/#(\d+)/g)].pop()?.[1]);
        return {
          toolCalls: [{ name: 'reply', arguments: { messageNumber: number, strings: ['pong'] } }],
        };
      };
      const server = await startModelServer({ protocol, reply: script });
      keepServer(server);
      const run = await startAgent({
        realProvider: true,
        env: {
          LAL_HOST: server.url,
          LAL_PROVIDER: protocol,
          LAL_MODEL: 'double-model',
          LAL_AUTH_TOKEN: TOKEN,
        },
      });
      keepAgent(run);
      await run.send('ping');
      await run.reply('pong');
      await run.send('ping again');
      await run.reply('pong');
      await expect.poll(() => run.events.filter(event => event.kind === 'turn-end').length).toBe(2);
      const ends = run.events.flatMap(event => (event.kind === 'turn-end' ? [event.usage] : []));
      // The second turn's request begins as the first did: the server served that part from its cache.
      expect(ends[1]?.cachedInputTokens).toBeGreaterThan(0);
      expect(ends[1]?.cachedInputTokens).toBeLessThan(ends[1]?.inputTokens ?? 0);
    },
  );
});
