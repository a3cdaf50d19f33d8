/**
 * Replies in shapes our double never sends but real servers do, read by the
 * real SDKs through createProvider from a small loopback server: tool calls
 * with arguments as text, without a name or id, custom tool calls, replies
 * without usage or cache counts, error bodies in a proxy's shape or as plain
 * text, and answers that are no chat reply at all.
 */
import { describe, expect, test } from 'vitest';
import { createProvider } from '../providers/create-provider.js';
import { ProviderError } from '../providers/types.js';
import { useRawServer, type RawHandler } from './support/raw-http-server.js';

type Handler = RawHandler;
const { serve, close } = useRawServer();

const answer =
  (status: number, body: unknown, contentType = 'application/json'): Handler =>
  (_request, response) => {
    response.writeHead(status, { 'content-type': contentType });
    response.end(
      typeof body === 'string' && contentType !== 'application/json' ? body : JSON.stringify(body),
    );
  };

const chat = (env: Record<string, string>) =>
  createProvider({ LAL_MAX_RETRIES: '0', LAL_MODEL: 'm', ...env }).chat(
    [{ role: 'user', content: 'hi' }],
    [],
  );

const failureOf = async (env: Record<string, string>): Promise<ProviderError> => {
  const error = await chat(env).then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(ProviderError);
  return error as ProviderError;
};

describe('Ollama replies', () => {
  test('tool calls with text arguments, no id, no name; no content and no counts', async () => {
    const host = await serve(
      answer(200, {
        model: 'm',
        created_at: '2026-01-01T00:00:00Z',
        message: {
          role: 'assistant',
          tool_calls: [
            { function: { name: 'reply', arguments: '{"messageNumber":1}' } },
            { function: { arguments: { x: 1 } } },
            { id: 'given', function: { name: 'dismiss' } },
          ],
        },
        done: true,
      }),
    );
    const result = await chat({ LAL_HOST: host, LAL_PROVIDER: 'ollama' });
    expect(result.message.content).toBe('');
    const calls = result.message.role === 'assistant' ? (result.message.toolCalls ?? []) : [];
    // Text arguments are kept as the server wrote them; missing ones are an empty object.
    expect(calls.map(call => [call.name, call.arguments])).toEqual([
      ['reply', '{"messageNumber":1}'],
      ['', '{"x":1}'],
      ['dismiss', '{}'],
    ]);
    expect(calls[2]?.id).toBe('given');
    expect(new Set(calls.map(call => call.id)).size).toBe(3);
    // No counts reported: no usage made up.
    expect(result.usage).toBeUndefined();
  });

  test("an error body in a proxy's {message} shape, or as plain text, is shown in the server's words", async () => {
    const proxied = await serve(answer(502, { message: 'upstream model crashed' }));
    expect((await failureOf({ LAL_HOST: proxied, LAL_PROVIDER: 'ollama' })).message).toMatch(
      /^Ollama at .* failed \(HTTP 502\): upstream model crashed\.$/,
    );
    await close();
    const plain = await serve(answer(500, 'Internal failure in runner', 'text/plain'));
    expect((await failureOf({ LAL_HOST: plain, LAL_PROVIDER: 'ollama' })).message).toMatch(
      /failed \(HTTP 500\): Internal failure in runner\.$/,
    );
  });

  test('an answer that is JSON null names what it got', async () => {
    const host = await serve(answer(200, null));
    const failure = await failureOf({ LAL_HOST: host, LAL_PROVIDER: 'ollama' });
    expect(failure.message).toMatch(
      /not an Ollama chat reply \(no message; it has null\)\. For an OpenAI-compatible server.*, set LAL_HOST to .*\/v1\.$/,
    );
  });
});

describe('Ollama replies, continued', () => {
  test('a reply cut by num_predict is marked truncated; a count left out is counted as none', async () => {
    const host = await serve(
      answer(200, {
        model: 'm',
        message: { role: 'assistant', content: 'The answer is' },
        done: true,
        done_reason: 'length',
        eval_count: 7,
      }),
    );
    const result = await chat({ LAL_HOST: host, LAL_PROVIDER: 'ollama' });
    expect(result).toMatchObject({
      truncated: true,
      usage: { inputTokens: 0, outputTokens: 7 },
    });
    expect(result.message.content).toBe('The answer is');
    await close();
    const promptOnly = await serve(
      answer(200, {
        model: 'm',
        message: { role: 'assistant', content: '' },
        done: true,
        prompt_eval_count: 12,
      }),
    );
    const counted = await chat({ LAL_HOST: promptOnly, LAL_PROVIDER: 'ollama' });
    expect(counted.usage).toEqual({ inputTokens: 12, outputTokens: 0 });
    expect(counted.truncated).toBeUndefined();
  });

  test('an error with an empty body is named by its status; a message that is text is no chat reply', async () => {
    const empty = await serve(answer(503, '', 'text/plain'));
    expect((await failureOf({ LAL_HOST: empty, LAL_PROVIDER: 'ollama' })).message).toMatch(
      /^Ollama at .* failed \(HTTP 503\): Service Unavailable\.?/,
    );
    await close();
    const text = await serve(answer(200, { model: 'm', message: 'hello', done: true }));
    expect((await failureOf({ LAL_HOST: text, LAL_PROVIDER: 'ollama' })).message).toMatch(
      /not an Ollama chat reply/,
    );
  });
});

describe('OpenAI-compatible replies', () => {
  test('a custom tool call keeps its raw input; a function call without arguments gets empty text; no usage', async () => {
    const host = await serve(
      answer(200, {
        id: 'c',
        object: 'chat.completion',
        created: 0,
        model: 'm',
        choices: [
          {
            index: 0,
            finish_reason: 'tool_calls',
            message: {
              role: 'assistant',
              content: null,
              tool_calls: [
                {
                  id: 'call_1',
                  type: 'custom',
                  custom: { name: 'patch', input: '*** raw patch text' },
                },
                { id: 'call_2', type: 'function', function: { name: 'help' } },
              ],
            },
          },
        ],
      }),
    );
    const result = await chat({ LAL_HOST: `${host}/v1`, LAL_PROVIDER: 'openai' });
    const calls = result.message.role === 'assistant' ? (result.message.toolCalls ?? []) : [];
    expect(calls).toEqual([
      { id: 'call_1', name: 'patch', arguments: '*** raw patch text' },
      { id: 'call_2', name: 'help', arguments: '' },
    ]);
    expect(result.usage).toBeUndefined();
  });

  test('an answer that is an empty object, an array or text says so in plain words (not "a object")', async () => {
    const empty = await serve(answer(200, {}));
    expect((await failureOf({ LAL_HOST: `${empty}/v1`, LAL_PROVIDER: 'openai' })).message).toMatch(
      /not an OpenAI chat completion \(no choices with a message; it has an empty object\)\.$/,
    );
    await close();
    const list = await serve(answer(200, []));
    expect((await failureOf({ LAL_HOST: `${list}/v1`, LAL_PROVIDER: 'openai' })).message).toMatch(
      /\(no choices with a message; it has an empty array\)\.$/,
    );
    await close();
    const text = await serve(answer(200, 'ok'));
    expect((await failureOf({ LAL_HOST: `${text}/v1`, LAL_PROVIDER: 'openai' })).message).toMatch(
      /\(no choices with a message; it has a string\)\.$/,
    );
    await close();
    const batch = await serve(answer(200, [{ choices: [] }]));
    expect((await failureOf({ LAL_HOST: `${batch}/v1`, LAL_PROVIDER: 'openai' })).message).toMatch(
      /\(no choices with a message; it has an array\)\.$/,
    );
  });
});

describe('Anthropic replies', () => {
  test('a tool_use without input becomes empty-object arguments; usage without cache counts is plain input', async () => {
    const host = await serve(
      answer(200, {
        id: 'msg_1',
        type: 'message',
        role: 'assistant',
        model: 'm',
        content: [{ type: 'tool_use', id: 'toolu_1', name: 'help' }],
        stop_reason: 'tool_use',
        stop_sequence: null,
        usage: { input_tokens: 12, output_tokens: 3 },
      }),
    );
    const result = await chat({
      LAL_HOST: host,
      LAL_PROVIDER: 'anthropic',
      LAL_AUTH_TOKEN: 'sk-ant-test-0000',
    });
    expect(result.message).toEqual({
      role: 'assistant',
      content: '',
      toolCalls: [{ id: 'toolu_1', name: 'help', arguments: '{}' }],
    });
    expect(result.usage).toEqual({ inputTokens: 12, outputTokens: 3, cachedInputTokens: 0 });
  });

  test('a reply without usage is a reply without usage', async () => {
    const host = await serve(
      answer(200, {
        id: 'msg_2',
        type: 'message',
        role: 'assistant',
        model: 'm',
        content: [{ type: 'text', text: 'pong' }],
        stop_reason: 'end_turn',
        stop_sequence: null,
      }),
    );
    const result = await chat({
      LAL_HOST: host,
      LAL_PROVIDER: 'anthropic',
      LAL_AUTH_TOKEN: 'sk-ant-test-0000',
    });
    expect(result).toEqual({ message: { role: 'assistant', content: 'pong' } });
  });

  test('an answer that is no Anthropic message (null, an empty object, text, an OpenAI completion) says what came back and what to change', async () => {
    const env = (host: string) => ({
      LAL_HOST: host,
      LAL_PROVIDER: 'anthropic',
      LAL_AUTH_TOKEN: 'sk-ant-test-0000',
    });
    const cases: [unknown, RegExp][] = [
      [
        null,
        /^Anthropic at http:\/\/127\.0\.0\.1:\d+ answered with something that is not an Anthropic message \(no content list; it has null\)\.$/,
      ],
      [{}, /\(no content list; it has an empty object\)\.$/],
      ['ok', /\(no content list; it has a string\)\.$/],
      [
        { id: 'msg_3', type: 'message', role: 'assistant', content: 'pong' },
        /\(no content list; it has fields id, type, role, content\)\.$/,
      ],
      [
        {
          id: 'chatcmpl-1',
          object: 'chat.completion',
          choices: [{ index: 0, message: { role: 'assistant', content: 'pong' } }],
        },
        /it has fields id, object, choices\)\. It looks like an OpenAI-compatible server: set LAL_PROVIDER=openai\.$/,
      ],
    ];
    for (const [body, expected] of cases) {
      const host = await serve(answer(200, body));
      const failure = await failureOf(env(host));
      expect(failure.message).toMatch(expected);
      expect(failure.message).not.toContain('sk-ant-test-0000');
      await close();
    }
  });
});
