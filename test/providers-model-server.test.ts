/**
 * The model service doubles themselves: each refuses, with the real
 * service's status and error shape, the histories the real service refuses,
 * and records what it was sent.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createProvider } from '../providers/create-provider.js';
import { ProviderError } from '../providers/types.js';
import { scriptedReplies, startModelServer } from '../sim/model-server/index.js';
import type { ModelProtocol, ModelServer } from '../sim/model-server/index.js';

let server: ModelServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const start = async (protocol: ModelProtocol) => {
  server = await startModelServer({ protocol, reply: scriptedReplies([], { text: 'fine' }) });
  return server;
};

const post = async (url: string, body: unknown, headers: Record<string, string> = {}) => {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
};

const user = { role: 'user', content: 'go' };

describe('OpenAI double', () => {
  const chat = async (messages: unknown[]) => {
    const running = await start('openai');
    return post(`${running.url}/chat/completions`, { model: 'm', messages });
  };
  const callWithout = (field: string) => {
    const call: Record<string, unknown> = {
      id: 'call_1',
      type: 'function',
      function: { name: 'list', arguments: '{}' },
    };
    delete call[field];
    return { role: 'assistant', content: null, tool_calls: [call] };
  };
  const result = { role: 'tool', tool_call_id: 'call_1', content: 'ok' };

  it('accepts a well-formed tool round trip', async () => {
    expect((await chat([user, callWithout('none'), result])).status).toBe(200);
  });

  it("refuses a tool call without type: 'function'", async () => {
    const { status, body } = await chat([user, callWithout('type'), result]);
    expect(status).toBe(400);
    expect(body).toEqual({
      error: {
        message: "Missing required parameter: 'messages[1].tool_calls[0].type'.",
        type: 'invalid_request_error',
        param: 'messages[1].tool_calls[0].type',
        code: 'missing_required_parameter',
      },
    });
  });

  it('refuses a call left unanswered, and a result without a call', async () => {
    const unanswered = await chat([user, callWithout('none'), user]);
    expect(unanswered.status).toBe(400);
    expect(JSON.stringify(unanswered.body)).toContain('did not have response messages: call_1');
    await server?.close();
    const orphan = await chat([user, result]);
    expect(orphan.status).toBe(400);
    expect(JSON.stringify(orphan.body)).toContain("messages with role 'tool' must be a response");
  });

  it('refuses object arguments', async () => {
    const call = {
      role: 'assistant',
      content: null,
      tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'list', arguments: {} } }],
    };
    const { status, body } = await chat([user, call, result]);
    expect(status).toBe(400);
    expect(body).toMatchObject({
      error: { param: 'messages[1].tool_calls[0].function.arguments', code: 'invalid_type' },
    });
  });

  it('lists models, and its refusal reaches the provider as a bad-request error in the server words', async () => {
    const running = await start('openai');
    const models = (await (await fetch(`${running.url}/models`)).json()) as {
      data: { id: string }[];
    };
    expect(models.data.map(model => model.id)).toEqual(['double-model']);

    const provider = createProvider({ LAL_HOST: running.url, LAL_MODEL: 'double-model' });
    const failure = await provider
      .chat(
        [
          { role: 'user', content: 'go' },
          {
            role: 'assistant',
            content: '',
            toolCalls: [{ id: 'call_9', name: 'list', arguments: '{}' }],
          },
        ],
        [],
      )
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ProviderError);
    expect((failure as ProviderError).kind).toBe('bad-request');
    expect((failure as ProviderError).message).toContain('call_9');
  });
});

describe('Anthropic double', () => {
  const headers = { 'x-api-key': 'k', 'anthropic-version': '2023-06-01' };
  const chat = async (body: Record<string, unknown>, sent: Record<string, string> = headers) => {
    const running = await start('anthropic');
    return post(`${running.url}/v1/messages`, { model: 'm', max_tokens: 100, ...body }, sent);
  };
  const use = {
    role: 'assistant',
    content: [{ type: 'tool_use', id: 'toolu_1', name: 'list', input: {} }],
  };
  const answer = { type: 'tool_result', tool_use_id: 'toolu_1', content: 'ok' };

  it('accepts a well-formed tool round trip with a top-level system prompt', async () => {
    const { status, body } = await chat({
      system: 'Be Lal.',
      messages: [user, use, { role: 'user', content: [answer] }],
    });
    expect(status).toBe(200);
    expect(body).toMatchObject({
      type: 'message',
      role: 'assistant',
      content: [{ type: 'text', text: 'fine' }],
      stop_reason: 'end_turn',
    });
    expect(server?.requests[0]?.normalized?.messages[0]).toEqual({
      role: 'system',
      text: 'Be Lal.',
    });
  });

  it('refuses a system role inside messages, in the error shape of the service', async () => {
    const { status, body } = await chat({ messages: [{ role: 'system', content: 'x' }, user] });
    expect(status).toBe(400);
    expect(body.type).toBe('error');
    expect(body.error).toMatchObject({ type: 'invalid_request_error' });
    expect(String((body.error as { message: string }).message)).toContain('top-level `system`');
  });

  it('refuses a tool_use without its tool_result first in the next user message', async () => {
    const missing = await chat({ messages: [user, use, user] });
    expect(missing.status).toBe(400);
    expect(JSON.stringify(missing.body)).toContain(
      '`tool_use` ids were found without `tool_result` blocks immediately after: toolu_1',
    );
    await server?.close();
    const late = await chat({
      messages: [user, use, { role: 'user', content: [{ type: 'text', text: 'hi' }, answer] }],
    });
    expect(late.status).toBe(400);
  });

  it('refuses roles that do not alternate', async () => {
    const { status, body } = await chat({ messages: [user, user] });
    expect(status).toBe(400);
    expect(JSON.stringify(body)).toContain('roles must alternate');
  });

  it('refuses a request without a key (behaviour 401) or without anthropic-version (behaviour 400)', async () => {
    const noKey = await chat({ messages: [user] }, { 'anthropic-version': '2023-06-01' });
    expect(noKey.status).toBe(401);
    expect(noKey.body.error).toMatchObject({ type: 'authentication_error' });
    await server?.close();
    const noVersion = await chat({ messages: [user] }, { 'x-api-key': 'k' });
    expect(noVersion.status).toBe(400);
  });
});

describe('Ollama double', () => {
  it('refuses tool-call arguments that are a string', async () => {
    const running = await start('ollama');
    const call = {
      role: 'assistant',
      content: '',
      tool_calls: [{ function: { name: 'list', arguments: '{}' } }],
    };
    const { status, body } = await post(`${running.url}/api/chat`, {
      model: 'm',
      stream: false,
      messages: [user, call],
    });
    expect(status).toBe(400);
    expect(String(body.error)).toContain('cannot unmarshal string');
  });

  it('answers liveness and streams NDJSON when stream is not false, as the real server defaults', async () => {
    const running = await start('ollama');
    expect(await (await fetch(`${running.url}/api/version`)).json()).toHaveProperty('version');
    expect(await (await fetch(`${running.url}/api/tags`)).json()).toMatchObject({
      models: [{ name: 'double-model' }],
    });
    const response = await fetch(`${running.url}/api/chat`, {
      method: 'POST',
      body: JSON.stringify({ model: 'm', messages: [user] }),
    });
    const lines = (await response.text())
      .trim()
      .split('\n')
      .map(line => JSON.parse(line) as { done: boolean });
    expect(lines.at(-1)?.done).toBe(true);
    expect(lines[0]).toMatchObject({ done: false, message: { content: 'fine' } });
  });
});

// Behaviour 7.7: the doubles stream as the real services do.
describe('streaming as each service streams', () => {
  const streamed = async (path: string, body: unknown, headers: Record<string, string> = {}) => {
    const response = await fetch(path, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
    });
    return { type: response.headers.get('content-type'), text: await response.text() };
  };
  const many = { text: 'one two three' };

  it('OpenAI: data: lines of chat.completion.chunk, usage last when asked, then data: [DONE]; stream_options alone refused', async () => {
    server = await startModelServer({ protocol: 'openai', reply: scriptedReplies([], many) });
    const url = `${server.url}/chat/completions`;
    const { type, text } = await streamed(url, {
      model: 'm',
      messages: [user],
      stream: true,
      stream_options: { include_usage: true },
    });
    expect(type).toBe('text/event-stream');
    const events = text.split('\n\n').filter(event => event !== '');
    expect(events.every(event => event.startsWith('data: '))).toBe(true);
    expect(events.at(-1)).toBe('data: [DONE]');
    const chunks = events
      .slice(0, -1)
      .map(event => JSON.parse(event.slice('data: '.length)) as Record<string, unknown>);
    expect(chunks.every(chunk => chunk.object === 'chat.completion.chunk')).toBe(true);
    const deltas = chunks.map(
      chunk => (chunk.choices as { delta?: { content?: string } }[])[0]?.delta?.content ?? '',
    );
    expect(deltas.join('')).toBe('one two three');
    expect(deltas.filter(delta => delta !== '').length).toBe(3);
    expect(chunks.at(-1)).toMatchObject({
      choices: [],
      usage: { prompt_tokens: expect.any(Number) },
    });
    expect(chunks.at(-2)).toMatchObject({ choices: [{ finish_reason: 'stop' }], usage: null });

    const alone = await post(url, {
      model: 'm',
      messages: [user],
      stream_options: { include_usage: true },
    });
    expect(alone.status).toBe(400);
    expect(alone.body).toMatchObject({
      error: {
        message: "The 'stream_options' parameter is only allowed when 'stream' is enabled.",
        param: 'stream_options',
      },
    });
  });

  it('Anthropic: named events from message_start to message_stop, text in text_delta', async () => {
    server = await startModelServer({ protocol: 'anthropic', reply: scriptedReplies([], many) });
    const { type, text } = await streamed(
      `${server.url}/v1/messages`,
      { model: 'm', max_tokens: 10, messages: [user], stream: true },
      { 'x-api-key': 'k', 'anthropic-version': '2023-06-01' },
    );
    expect(type).toBe('text/event-stream');
    const events = text
      .split('\n\n')
      .filter(event => event !== '')
      .map(event => {
        const [name, data] = event.split('\n');
        return {
          name: name!.replace(/^event: /, ''),
          data: JSON.parse(data!.replace(/^data: /, '')) as Record<string, unknown>,
        };
      });
    expect(events.every(event => event.data.type === event.name)).toBe(true);
    expect([...new Set(events.map(event => event.name))]).toEqual([
      'message_start',
      'ping',
      'content_block_start',
      'content_block_delta',
      'content_block_stop',
      'message_delta',
      'message_stop',
    ]);
    const words = events
      .filter(event => event.name === 'content_block_delta')
      .map(event => (event.data.delta as { text: string }).text);
    expect(words.join('')).toBe('one two three');
    expect(events.find(event => event.name === 'message_delta')?.data).toMatchObject({
      delta: { stop_reason: 'end_turn' },
      usage: { output_tokens: expect.any(Number) },
    });
    const bad = await post(
      `${server.url}/v1/messages`,
      { model: 'm', max_tokens: 10, messages: [user], stream: 'yes' },
      { 'x-api-key': 'k', 'anthropic-version': '2023-06-01' },
    );
    expect(bad.status).toBe(400);
  });

  it('Ollama: one JSON object a line, the text piece by piece, the last with done and the counts', async () => {
    server = await startModelServer({ protocol: 'ollama', reply: scriptedReplies([], many) });
    const { type, text } = await streamed(`${server.url}/api/chat`, {
      model: 'm',
      messages: [user],
      stream: true,
    });
    expect(type).toBe('application/x-ndjson');
    const lines = text
      .trim()
      .split('\n')
      .map(line => JSON.parse(line) as { done: boolean; message: { content: string } });
    expect(lines.map(line => line.done)).toEqual([false, false, false, true]);
    expect(lines.map(line => line.message.content).join('')).toBe('one two three');
    expect(lines.at(-1)).toMatchObject({ done_reason: 'stop', eval_count: expect.any(Number) });
  });
});

describe('recording', () => {
  it('keeps bodies and sizes, leaves credentials out, and says when a script runs out', async () => {
    server = await startModelServer({
      protocol: 'openai',
      reply: scriptedReplies([{ text: 'one' }]),
    });
    const url = `${server.url}/chat/completions`;
    const headers = { authorization: 'Bearer secret-value' };
    expect((await post(url, { model: 'm', messages: [user] }, headers)).status).toBe(200);
    const extra = await post(url, { model: 'm', messages: [user] }, headers);
    expect(extra.status).toBe(500);
    expect(JSON.stringify(extra.body)).toContain('scripted replies exhausted');
    await server.waitForRequests(2);
    const [first] = server.requests;
    expect(first?.hadAuth).toBe(true);
    expect(first?.headers.authorization).toBeUndefined();
    expect(first?.bytes).toBe(JSON.stringify({ model: 'm', messages: [user] }).length);
    expect(first?.body).toEqual({ model: 'm', messages: [user] });
    expect(server.timeInsideServerMs()).toBeGreaterThan(0);
  });
});
