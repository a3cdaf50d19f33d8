/**
 * The at-the-wire provider tests, run once per protocol (one test file each,
 * so the three run in parallel): the real SDK, through createProvider,
 * against our double of the service on 127.0.0.1.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createProvider } from '../providers/create-provider.js';
import type { ProviderOptions } from '../providers/create-provider.js';
import { ProviderError } from '../providers/types.js';
import type { ChatMessage, ToolSchema } from '../providers/types.js';
import {
  alwaysFail,
  failFirst,
  scriptedReplies,
  startModelServer,
} from '../sim/model-server/index.js';
import type {
  ModelProtocol,
  ModelServer,
  ModelServerOptions,
  ReplyScript,
} from '../sim/model-server/index.js';

const TOKEN = 'sk-test-secret-token-5678';

const tools: ToolSchema[] = [
  {
    type: 'function',
    function: {
      name: 'reply',
      description: 'Reply to a message.',
      parameters: {
        type: 'object',
        properties: {
          messageNumber: { type: 'number' },
          strings: { type: 'array', items: { type: 'string' } },
        },
        required: ['messageNumber', 'strings'],
      },
    },
  },
  {
    type: 'function',
    function: {
      name: 'dismiss',
      description: 'Dismiss a message.',
      parameters: {
        type: 'object',
        properties: { messageNumber: { type: 'number' } },
        required: ['messageNumber'],
      },
    },
  },
];

const ping: ChatMessage[] = [
  { role: 'system', content: 'You are Lal.' },
  { role: 'user', content: 'Message #3 from HOST: ping' },
];

/** What an error's promise rejected with, as a ProviderError. */
const failureOf = async (work: Promise<unknown>): Promise<ProviderError> => {
  try {
    await work;
  } catch (error) {
    expect(error).toBeInstanceOf(ProviderError);
    return error as ProviderError;
  }
  throw new Error('expected the call to fail');
};

export const describeWireSuite = (protocol: ModelProtocol) => {
  describe(`${protocol} provider at the wire`, () => {
    let server: ModelServer | undefined;
    afterEach(async () => {
      await server?.close();
      server = undefined;
    });

    const start = async (reply: ReplyScript, extra: Partial<ModelServerOptions> = {}) => {
      server = await startModelServer({ protocol, reply, ...extra });
      return server;
    };
    const providerFor = (
      running: ModelServer,
      env: Record<string, string> = {},
      options: ProviderOptions = {},
    ) =>
      createProvider(
        {
          LAL_HOST: running.url,
          LAL_PROVIDER: protocol,
          LAL_AUTH_TOKEN: TOKEN,
          LAL_MODEL: 'double-model',
          ...env,
        },
        { retryDelays: { baseDelayMs: 10 }, ...options },
      );

    it('answers ping with the text reply, the system prompt placed as the service wants, and usage', async () => {
      const running = await start(
        scriptedReplies([{ text: 'pong', usage: { inputTokens: 42, outputTokens: 7 } }]),
      );
      const provider = providerFor(running, { LAL_MAX_TOKENS: '321' });
      expect(provider.kind).toBe(protocol);
      expect(provider.model).toBe('double-model');
      const result = await provider.chat(ping, tools);
      expect(result.message).toEqual({ role: 'assistant', content: 'pong' });
      // Anthropic and llama.cpp report the cached part of the prompt (none yet); Ollama does not.
      expect(result.usage).toEqual(
        protocol === 'ollama'
          ? { inputTokens: 42, outputTokens: 7 }
          : { inputTokens: 42, outputTokens: 7, cachedInputTokens: 0 },
      );

      const [request] = running.requests;
      expect(request?.status).toBe(200);
      expect(request?.normalized?.messages.map(m => [m.role, m.text])).toEqual([
        ['system', 'You are Lal.'],
        ['user', 'Message #3 from HOST: ping'],
      ]);
      expect(request?.normalized?.toolNames).toEqual(['reply', 'dismiss']);
      expect(request?.normalized?.maxTokens).toBe(321);
      const body = request?.body as Record<string, unknown>;
      if (protocol === 'anthropic') {
        expect(body.system).toEqual([
          { type: 'text', text: 'You are Lal.', cache_control: { type: 'ephemeral' } },
        ]);
        expect(request?.headers['anthropic-version']).toBeTruthy();
      }
      // The credential went in a header the recorder keeps out of its copy.
      expect(request?.hadAuth).toBe(true);
      expect(JSON.stringify(running.requests)).not.toContain(TOKEN);
    });

    it('carries two tool calls in one reply, and the follow-up history is accepted', async () => {
      const running = await start(
        scriptedReplies([
          {
            toolCalls: [
              { name: 'reply', arguments: { messageNumber: 3, strings: ['pong'] } },
              { name: 'dismiss', arguments: { messageNumber: 3 } },
            ],
          },
          { text: 'done' },
        ]),
      );
      const provider = providerFor(running);
      const first = await provider.chat(ping, tools);
      const calls = first.message.toolCalls ?? [];
      expect(calls.map(call => call.name)).toEqual(['reply', 'dismiss']);
      expect(calls.map(call => JSON.parse(call.arguments) as unknown)).toEqual([
        { messageNumber: 3, strings: ['pong'] },
        { messageNumber: 3 },
      ]);
      expect(calls[0]?.id).toBeTruthy();
      expect(calls[0]?.id).not.toBe(calls[1]?.id);

      // The history the agent loop builds: the call, then one result per call.
      const history: ChatMessage[] = [
        ...ping,
        first.message,
        ...calls.map(call => ({
          role: 'tool' as const,
          toolCallId: call.id,
          name: call.name,
          content: '{"ok":true}',
        })),
      ];
      const second = await provider.chat(history, tools);
      expect(second.message.content).toBe('done');

      const followUp = running.requests[1];
      expect(followUp?.status).toBe(200);
      const seen = followUp?.normalized?.messages ?? [];
      expect(seen.map(message => message.role)).toEqual([
        'system',
        'user',
        'assistant',
        'tool',
        'tool',
      ]);
      expect(seen[2]?.toolCalls?.map(call => call.name)).toEqual(['reply', 'dismiss']);
      if (protocol === 'ollama') {
        // Ollama sent no ids: ours were made up, sent back and matched to the results.
        expect(seen[2]?.toolCalls?.map(call => call.id)).toEqual(calls.map(call => call.id));
        expect(seen.slice(3).map(message => message.toolName)).toEqual(['reply', 'dismiss']);
        expect(seen[2]?.toolCalls?.[0]?.arguments).toEqual({ messageNumber: 3, strings: ['pong'] });
      }
      expect(seen.slice(3).map(message => message.toolCallId)).toEqual(calls.map(call => call.id));
    });

    // Streaming: behaviour 7.7.
    it('streams the reply: its text is told as it grows, and the whole reply is the result', async () => {
      const text = 'pong, and a few more words to stream';
      const running = await start(
        scriptedReplies([{ text, usage: { inputTokens: 42, outputTokens: 9 } }]),
      );
      const seen: string[] = [];
      const result = await providerFor(running).chat(ping, tools, {
        onText: soFar => seen.push(soFar),
      });
      expect(result.message).toEqual({ role: 'assistant', content: text });
      expect(result.usage?.inputTokens).toBe(42);
      expect(result.usage?.outputTokens).toBe(9);
      // The text came in pieces, each the text so far, growing to the whole.
      expect(seen.length).toBeGreaterThan(3);
      expect(seen.at(-1)).toBe(text);
      seen.forEach((soFar, index) => {
        expect(text.startsWith(soFar)).toBe(true);
        if (index > 0) expect(soFar.length).toBeGreaterThan(seen[index - 1]!.length);
      });
      const [request] = running.requests;
      expect((request?.body as { stream?: unknown }).stream).toBe(true);
      if (protocol === 'openai') {
        expect((request?.body as { stream_options?: unknown }).stream_options).toEqual({
          include_usage: true,
        });
      }
      expect(request?.streamedFrames).toBeGreaterThan(seen.length);
    });

    it('joins the pieces of streamed tool calls into whole calls, and tells no text for them', async () => {
      const args = { messageNumber: 3, strings: ['a longer answer, sent in many pieces'] };
      const running = await start(
        scriptedReplies([
          {
            text: 'Answering.',
            toolCalls: [
              { name: 'reply', arguments: args },
              { name: 'dismiss', arguments: { messageNumber: 3 } },
            ],
          },
        ]),
      );
      const seen: string[] = [];
      const result = await providerFor(running).chat(ping, tools, {
        onText: soFar => seen.push(soFar),
      });
      expect(result.message.content).toBe('Answering.');
      expect(seen.at(-1)).toBe('Answering.');
      const calls = result.message.toolCalls ?? [];
      expect(calls.map(call => [call.name, JSON.parse(call.arguments) as unknown])).toEqual([
        ['reply', args],
        ['dismiss', { messageNumber: 3 }],
      ]);
      expect(result.truncated).toBeUndefined();
      // Ollama sends each call whole in one line; the others in pieces.
      expect(running.requests[0]?.streamedFrames).toBeGreaterThan(protocol === 'ollama' ? 2 : 6);
    });

    it('stops at once when its signal aborts a stream midway, the text so far told', async () => {
      const running = await start(
        scriptedReplies([{ text: 'one two three four five six', stallAfterFrames: 4 }]),
      );
      const controller = new AbortController();
      const seen: string[] = [];
      let firstText: () => void = () => {};
      const textArrived = new Promise<void>(resolve => {
        firstText = resolve;
      });
      const call = providerFor(running).chat(ping, tools, {
        signal: controller.signal,
        onText: soFar => {
          seen.push(soFar);
          firstText();
        },
      });
      await textArrived;
      controller.abort();
      const failure = await failureOf(call);
      expect(failure.kind).toBe('aborted');
      expect(seen[0]).toMatch(/^one/);
      expect(running.requests).toHaveLength(1);
    });

    it('gives up on a stream that stalls midway for longer than the request timeout', async () => {
      const running = await start(
        scriptedReplies([{ text: 'one two three', stallAfterFrames: 2 }]),
      );
      // Long enough for the server to write its two frames on a loaded machine (at 200 ms the
      // client gave up first under a load of 13): the stall, not the start, is what times out.
      const provider = providerFor(running, {}, { timeoutMs: 2_000, maxRetries: 0 });
      const failure = await failureOf(provider.chat(ping, tools));
      expect(failure.kind).toBe('timeout');
      expect(running.requests[0]?.streamedFrames).toBe(2);
    });

    it("reports a reply cut by the output limit as truncated, and a whole one as not (the service's own stop reason)", async () => {
      const running = await start(
        scriptedReplies([
          {
            toolCalls: [{ name: 'reply', arguments: { messageNumber: 3, strings: ['po'] } }],
            truncated: true,
          },
          { text: 'pong' },
        ]),
      );
      const provider = providerFor(running, { LAL_MAX_TOKENS: '5' });
      const cut = await provider.chat(ping, tools);
      expect(cut.truncated).toBe(true);
      expect(cut.message.toolCalls?.map(call => call.name)).toEqual(['reply']);
      const whole = await provider.chat(ping, tools);
      expect(whole.truncated).toBeUndefined();
      expect(whole.message.content).toBe('pong');
    });

    it('waits as Retry-After says after a 429, then succeeds', async () => {
      const running = await start(
        failFirst(1, { status: 429, retryAfter: '1' }, scriptedReplies([{ text: 'pong' }])),
      );
      const lines: string[] = [];
      const result = await providerFor(running, {}, { log: line => lines.push(line) }).chat(
        ping,
        tools,
      );
      expect(result.message.content).toBe('pong');
      // The retry is told to the log, without the token.
      expect(lines.some(line => /retrying/i.test(line))).toBe(true);
      expect(lines.join('\n')).not.toContain(TOKEN);
      expect(running.requests.map(request => request.status)).toEqual([429, 200]);
      const [first, second] = running.requests;
      // Honouring the header means not retrying before a second has passed
      // (the default first backoff would be at most 0.5 s).
      expect((second?.receivedAt ?? 0) - (first?.receivedAt ?? 0)).toBeGreaterThanOrEqual(950);
    });

    it('gives up on a server that keeps failing with a ProviderError after its retries', async () => {
      const running = await start(alwaysFail({ status: 500 }));
      const failure = await failureOf(
        providerFor(running, {}, { maxRetries: 1 }).chat(ping, tools),
      );
      expect(failure.kind).toBe('server');
      expect(failure.status).toBe(500);
      expect(running.requests).toHaveLength(2);
    });

    it('reports a refused credential by naming LAL_AUTH_TOKEN, never the token', async () => {
      const running = await start(scriptedReplies([{ text: 'never' }]), {
        apiKey: 'the-right-key-0000',
      });
      const failure = await failureOf(providerFor(running).chat(ping, tools));
      expect(failure.kind).toBe('auth');
      expect(failure.status).toBe(401);
      expect(failure.message).toContain('LAL_AUTH_TOKEN');
      expect(failure.message).not.toContain(TOKEN);
      expect(failure.message).not.toContain(TOKEN.slice(-4));
      expect(String(failure.stack)).not.toContain(TOKEN);
      expect(running.requests).toHaveLength(1); // not retried
    });

    it('reports a model the server does not know, by name', async () => {
      const running = await start(scriptedReplies([{ text: 'never' }]), {
        models: ['known-model'],
      });
      const failure = await failureOf(
        providerFor(running, { LAL_MODEL: 'no-such-model' }).chat(ping, tools),
      );
      expect(failure.kind).toBe('model-not-found');
      expect(failure.message).toContain('no-such-model');
      expect(failure.message).toContain('LAL_MODEL');
    });

    it('stops at once when its signal aborts a call in flight', async () => {
      const running = await start(() => ({ hang: true }));
      const controller = new AbortController();
      const call = providerFor(running).chat(ping, tools, { signal: controller.signal });
      await running.waitForRequests(1);
      controller.abort();
      const failure = await failureOf(call);
      expect(failure.kind).toBe('aborted');
      expect(running.requests).toHaveLength(1);
    });

    it('gives up on a server that never answers within the request timeout', async () => {
      const running = await start(() => ({ hang: true }));
      const provider = providerFor(running, {}, { timeoutMs: 150, maxRetries: 0 });
      const failure = await failureOf(provider.chat(ping, tools));
      expect(failure.kind).toBe('timeout');
    });

    it('reports a server that cannot be reached as a connection failure naming LAL_HOST', async () => {
      const running = await start(scriptedReplies([]));
      const url = running.url;
      await running.close();
      server = undefined;
      const provider = createProvider(
        { LAL_HOST: url, LAL_PROVIDER: protocol, LAL_AUTH_TOKEN: TOKEN },
        { maxRetries: 0 },
      );
      const failure = await failureOf(provider.chat(ping, tools));
      expect(failure.kind).toBe('connection');
      expect(failure.message).toContain('LAL_HOST');
    });

    it('keeps the last LAL_MAX_MESSAGES messages without splitting a call from its results', async () => {
      const running = await start(scriptedReplies([{ text: 'a' }, { text: 'b' }]));
      const provider = providerFor(running, { LAL_MAX_MESSAGES: '4' });
      const history: ChatMessage[] = [
        { role: 'system', content: 'You are Lal.' },
        { role: 'user', content: 'first' },
        {
          role: 'assistant',
          content: '',
          toolCalls: [
            { id: 'call_1', name: 'reply', arguments: '{"messageNumber":1,"strings":["x"]}' },
            { id: 'call_2', name: 'dismiss', arguments: '{"messageNumber":1}' },
          ],
        },
        { role: 'tool', toolCallId: 'call_1', name: 'reply', content: 'ok' },
        { role: 'tool', toolCallId: 'call_2', name: 'dismiss', content: 'ok' },
        { role: 'assistant', content: 'replied' },
        { role: 'user', content: 'second' },
      ];
      // The last four start inside the tool group: its orphaned results go too.
      await provider.chat(history, tools);
      const trimmed = running.requests[0]?.normalized?.messages ?? [];
      expect(running.requests[0]?.status).toBe(200);
      expect(trimmed[0]).toMatchObject({ role: 'system', text: 'You are Lal.' });
      expect(trimmed.some(message => message.role === 'tool')).toBe(false);
      expect(trimmed.at(-1)).toMatchObject({ role: 'user', text: 'second' });

      // Five reach back to the call itself: the whole group is kept.
      await providerFor(running, { LAL_MAX_MESSAGES: '5' }).chat(history, tools);
      const whole = running.requests[1]?.normalized?.messages ?? [];
      expect(running.requests[1]?.status).toBe(200);
      expect(
        whole.filter(message => message.role === 'tool').map(message => message.toolCallId),
      ).toEqual(['call_1', 'call_2']);
      expect(whole.find(message => message.role === 'assistant')?.toolCalls).toHaveLength(2);
      expect(whole[0]?.role).toBe('system');
    });
  });
};
