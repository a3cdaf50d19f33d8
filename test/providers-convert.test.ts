/**
 * Pure parts of the provider layer: conversion of our messages to and from
 * each API, the LAL_MAX_MESSAGES window, env parsing, error wording, retries.
 */
import { describe, expect, it } from 'vitest';
import { argumentsAsObject } from '../providers/arguments-object.js';
import {
  DEFAULT_ANTHROPIC_MODEL,
  readProviderConfig,
  type ProviderConfig,
} from '../providers/config.js';
import {
  OMITTED_HISTORY_NOTE,
  fromAnthropicMessage,
  toAnthropicRequest,
  toAnthropicTools,
} from '../providers/convert-anthropic.js';
import { fromOllamaMessage, toOllamaMessages } from '../providers/convert-ollama.js';
import { fromOpenAIMessage, toOpenAIMessages } from '../providers/convert-openai.js';
import { buildProvider, createProvider } from '../providers/create-provider.js';
import { httpFailure, redact } from '../providers/provider-errors.js';
import { parseRetryAfter, withRetries } from '../providers/retry.js';
import { keepLastMessages } from '../providers/trim-history.js';
import { ProviderError } from '../providers/types.js';
import type { ChatMessage, ToolSchema } from '../providers/types.js';

const turn: ChatMessage[] = [
  { role: 'system', content: 'You are Lal.' },
  { role: 'user', content: 'ping' },
  {
    role: 'assistant',
    content: '',
    toolCalls: [
      { id: 'call_a', name: 'reply', arguments: '{"messageNumber":3,"strings":["pong"]}' },
      { id: 'call_b', name: 'dismiss', arguments: '{"messageNumber":3}' },
    ],
  },
  { role: 'tool', toolCallId: 'call_a', name: 'reply', content: 'sent' },
  { role: 'tool', toolCallId: 'call_b', name: 'dismiss', content: 'dismissed' },
];

describe('OpenAI conversion', () => {
  it('sends tool calls typed as functions with raw string arguments and null content', () => {
    const wire = toOpenAIMessages(turn);
    expect(wire[0]).toEqual({ role: 'system', content: 'You are Lal.' });
    expect(wire[2]).toEqual({
      role: 'assistant',
      content: null,
      tool_calls: [
        {
          id: 'call_a',
          type: 'function',
          function: { name: 'reply', arguments: '{"messageNumber":3,"strings":["pong"]}' },
        },
        {
          id: 'call_b',
          type: 'function',
          function: { name: 'dismiss', arguments: '{"messageNumber":3}' },
        },
      ],
    });
    expect(wire[3]).toEqual({ role: 'tool', tool_call_id: 'call_a', content: 'sent' });
  });

  it('keeps text beside tool calls and broken argument text as written', () => {
    const [wire] = toOpenAIMessages([
      {
        role: 'assistant',
        content: 'Let me check.',
        toolCalls: [{ id: 'c', name: 'list', arguments: '{oops' }],
      },
    ]);
    expect(wire).toMatchObject({
      content: 'Let me check.',
      tool_calls: [{ function: { arguments: '{oops' } }],
    });
  });

  it('reads a reply with tool calls back into our format', () => {
    const message = fromOpenAIMessage({
      role: 'assistant',
      content: null,
      refusal: null,
      tool_calls: [{ id: 'call_x', type: 'function', function: { name: 'list', arguments: '{}' } }],
    });
    expect(message).toEqual({
      role: 'assistant',
      content: '',
      toolCalls: [{ id: 'call_x', name: 'list', arguments: '{}' }],
    });
  });
});

describe('Anthropic conversion', () => {
  it('puts the system prompt on top and the tool results in the next user turn', () => {
    const { system, messages } = toAnthropicRequest(turn);
    expect(system).toBe('You are Lal.');
    expect(messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'ping' }] },
      {
        role: 'assistant',
        content: [
          {
            type: 'tool_use',
            id: 'call_a',
            name: 'reply',
            input: { messageNumber: 3, strings: ['pong'] },
          },
          { type: 'tool_use', id: 'call_b', name: 'dismiss', input: { messageNumber: 3 } },
        ],
      },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 'call_a', content: 'sent' },
          { type: 'tool_result', tool_use_id: 'call_b', content: 'dismissed' },
        ],
      },
    ]);
  });

  it('merges consecutive same-role messages, tool results first, and keeps a later system notice in place', () => {
    const { messages } = toAnthropicRequest([
      ...turn,
      { role: 'user', content: 'new mail' },
      { role: 'system', content: 'Proposal GRANTED' },
      { role: 'user', content: 'more mail' },
    ]);
    expect(messages).toHaveLength(3);
    expect(messages[2]?.content).toEqual([
      { type: 'tool_result', tool_use_id: 'call_a', content: 'sent' },
      { type: 'tool_result', tool_use_id: 'call_b', content: 'dismissed' },
      { type: 'text', text: 'new mail' },
      { type: 'text', text: 'Proposal GRANTED' },
      { type: 'text', text: 'more mail' },
    ]);
  });

  it('drops empty messages, and opens a history that starts with the assistant with a note', () => {
    const { system, messages } = toAnthropicRequest([
      { role: 'assistant', content: 'earlier answer' },
      { role: 'assistant', content: '' },
      { role: 'user', content: 'next' },
    ]);
    expect(system).toBeUndefined();
    expect(messages.map(message => message.role)).toEqual(['user', 'assistant', 'user']);
    expect(messages[0]?.content).toEqual([{ type: 'text', text: OMITTED_HISTORY_NOTE }]);
  });

  it('makes ids from other services acceptable, the same way on both sides', () => {
    const { messages } = toAnthropicRequest([
      { role: 'user', content: 'go' },
      {
        role: 'assistant',
        content: '',
        toolCalls: [{ id: 'call:1/x', name: 'list', arguments: '{}' }],
      },
      { role: 'tool', toolCallId: 'call:1/x', name: 'list', content: '[]' },
    ]);
    expect(messages[1]?.content).toMatchObject([{ id: 'call_1_x' }]);
    expect(messages[2]?.content).toMatchObject([{ tool_use_id: 'call_1_x' }]);
  });

  it('gives every tool an object input schema', () => {
    const tool: ToolSchema = {
      type: 'function',
      function: { name: 'help', description: 'Help.', parameters: {} },
    };
    expect(toAnthropicTools([tool])).toEqual([
      { name: 'help', description: 'Help.', input_schema: { type: 'object', properties: {} } },
    ]);
  });

  it('reads text and tool_use blocks back, leaving thinking out', () => {
    const message = fromAnthropicMessage({
      id: 'msg_1',
      type: 'message',
      role: 'assistant',
      model: 'claude',
      content: [
        { type: 'thinking', thinking: 'hmm', signature: 's' },
        { type: 'text', text: 'On it.', citations: null },
        {
          type: 'tool_use',
          id: 'toolu_1',
          name: 'reply',
          input: { messageNumber: 3 },
          caller: { type: 'direct' },
        },
      ],
      stop_reason: 'tool_use',
      stop_sequence: null,
    } as unknown as Parameters<typeof fromAnthropicMessage>[0]);
    expect(message).toEqual({
      role: 'assistant',
      content: 'On it.',
      toolCalls: [{ id: 'toolu_1', name: 'reply', arguments: '{"messageNumber":3}' }],
    });
  });
});

describe('arguments that must travel as an object', () => {
  it('passes a JSON object through and carries anything else under _raw', () => {
    expect(argumentsAsObject('{"a":1}')).toEqual({ a: 1 });
    expect(argumentsAsObject('{broken')).toEqual({ _raw: '{broken' });
    expect(argumentsAsObject('[1,2]')).toEqual({ _raw: '[1,2]' });
    expect(argumentsAsObject('"text"')).toEqual({ _raw: '"text"' });
    expect(argumentsAsObject('')).toEqual({});
  });
});

describe('Ollama conversion', () => {
  it('sends object arguments, ids, and tool results with their tool name', () => {
    const wire = toOllamaMessages(turn);
    expect(wire[2]).toEqual({
      role: 'assistant',
      content: '',
      tool_calls: [
        {
          id: 'call_a',
          function: { index: 0, name: 'reply', arguments: { messageNumber: 3, strings: ['pong'] } },
        },
        { id: 'call_b', function: { index: 1, name: 'dismiss', arguments: { messageNumber: 3 } } },
      ],
    });
    expect(wire[3]).toEqual({
      role: 'tool',
      content: 'sent',
      tool_name: 'reply',
      tool_call_id: 'call_a',
    });
  });

  it('makes up ids for calls that come without one and keeps those that have one', () => {
    let made = 0;
    const newId = () => `made_${(made += 1)}`;
    const message = fromOllamaMessage(
      {
        role: 'assistant',
        content: '',
        tool_calls: [
          { function: { name: 'reply', arguments: { messageNumber: 3 } } },
          { id: 'call_server', function: { name: 'dismiss', arguments: { messageNumber: 3 } } },
        ] as never,
      },
      newId,
    );
    expect(message.toolCalls).toEqual([
      { id: 'made_1', name: 'reply', arguments: '{"messageNumber":3}' },
      { id: 'call_server', name: 'dismiss', arguments: '{"messageNumber":3}' },
    ]);
  });
});

describe('LAL_MAX_MESSAGES window', () => {
  const long: ChatMessage[] = [
    ...turn,
    { role: 'assistant', content: 'done' },
    { role: 'user', content: 'again' },
  ];

  it('keeps everything when unset or when the history is short', () => {
    expect(keepLastMessages(long, undefined)).toEqual(long);
    expect(keepLastMessages(long, 50)).toEqual(long);
  });

  it('never keeps a result without its call, and always keeps the system prompt', () => {
    const kept = keepLastMessages(long, 3);
    expect(kept.map(message => message.role)).toEqual(['system', 'assistant', 'user']);
    const whole = keepLastMessages(long, 5);
    expect(whole.map(message => message.role)).toEqual([
      'system',
      'assistant',
      'tool',
      'tool',
      'assistant',
      'user',
    ]);
  });

  it('reaches back to the call when the window would hold only results', () => {
    const kept = keepLastMessages(turn, 1);
    expect(kept.map(message => message.role)).toEqual(['system', 'assistant', 'tool', 'tool']);
  });
});

describe('reading the env', () => {
  it('defaults to a local Ollama with qwen3', () => {
    const config = readProviderConfig({});
    expect(config).toMatchObject({
      kind: 'ollama',
      host: 'http://localhost:11434',
      model: 'qwen3',
    });
    expect(createProvider({}).kind).toBe('ollama');
  });

  it('picks the SDK by LAL_HOST, and LAL_PROVIDER wins', () => {
    expect(readProviderConfig({ LAL_HOST: 'http://localhost:8080/v1' }).kind).toBe('openai');
    const anthropic = readProviderConfig({
      LAL_HOST: 'https://api.anthropic.com/v1',
      LAL_AUTH_TOKEN: 'k',
    });
    expect(anthropic).toMatchObject({
      kind: 'anthropic',
      host: 'https://api.anthropic.com',
      model: DEFAULT_ANTHROPIC_MODEL,
    });
    expect(
      readProviderConfig({ LAL_HOST: 'http://127.0.0.1:9/v1', LAL_PROVIDER: 'ollama' }).kind,
    ).toBe('ollama');
    expect(
      readProviderConfig({
        LAL_HOST: 'http://127.0.0.1:9',
        LAL_PROVIDER: 'anthropic',
        LAL_AUTH_TOKEN: 'k',
      }).kind,
    ).toBe('anthropic');
  });

  it('requires LAL_AUTH_TOKEN for Anthropic, saying so', () => {
    expect(() => createProvider({ LAL_HOST: 'https://api.anthropic.com' })).toThrow(
      /LAL_AUTH_TOKEN is required/,
    );
  });

  it('refuses bad numbers and unknown providers with the variable named', () => {
    const problem = (env: Record<string, string>) => {
      try {
        readProviderConfig(env);
      } catch (error) {
        expect(error).toBeInstanceOf(ProviderError);
        expect((error as ProviderError).kind).toBe('config');
        return (error as Error).message;
      }
      throw new Error('expected a config error');
    };
    expect(problem({ LAL_MAX_TOKENS: 'lots' })).toContain('LAL_MAX_TOKENS');
    expect(problem({ LAL_MAX_MESSAGES: '0' })).toContain('LAL_MAX_MESSAGES');
    expect(problem({ LAL_PROVIDER: 'gemini' })).toContain('LAL_PROVIDER');
    expect(problem({ LAL_HOST: 'localhost:11434' })).toContain('LAL_HOST');
    expect(readProviderConfig({ LAL_MAX_TOKENS: '512', LAL_MAX_MESSAGES: '40' })).toMatchObject({
      maxTokens: 512,
      maxMessages: 40,
    });
  });
});

describe('a provider kind the settings reader never makes', () => {
  it('is an invariant error (Fail/q from @endo/errors) naming the kind quoted', () => {
    const config = { ...readProviderConfig({}), kind: 'gemini' } as unknown as ProviderConfig;
    expect(() => buildProvider(config)).toThrow(/^Unknown provider kind "gemini"$/);
  });
});

describe('error wording', () => {
  const context = {
    service: 'Ollama',
    host: 'http://user:pw@localhost:11434',
    model: 'qwen3',
    secrets: ['tok-secret-1'],
  };

  it('removes secrets and user-info from what it says', () => {
    expect(redact('bad key tok-secret-1 given', ['tok-secret-1'])).toBe('bad key [redacted] given');
    const failure = httpFailure(500, 'echo: tok-secret-1', context);
    expect(failure.message).not.toContain('tok-secret-1');
    expect(failure.message).not.toContain('pw');
  });

  it('tells a missing model from a missing endpoint', () => {
    expect(httpFailure(404, "model 'qwen3' not found", context).kind).toBe('model-not-found');
    expect(httpFailure(404, '404 page not found', context)).toMatchObject({ kind: 'config' });
    expect(httpFailure(403, 'forbidden', context).message).toContain('LAL_AUTH_TOKEN');
  });
});

describe('retries', () => {
  it('reads Retry-After as seconds, an HTTP date, or retry-after-ms', () => {
    const headers = (values: Record<string, string>) => ({
      get: (name: string) => values[name] ?? null,
    });
    expect(parseRetryAfter(headers({ 'retry-after': '2' }))).toBe(2000);
    expect(parseRetryAfter(headers({ 'retry-after-ms': '150' }))).toBe(150);
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(parseRetryAfter(headers({ 'retry-after': 'Thu, 01 Jan 2026 00:00:03 GMT' }), now)).toBe(
      3000,
    );
    expect(parseRetryAfter(headers({}))).toBeUndefined();
  });

  it('retries a retryable failure up to the limit and stops at one that is not', async () => {
    const policy = { maxRetries: 2, baseDelayMs: 1, maxDelayMs: 2, maxRetryAfterMs: 1000 };
    let calls = 0;
    await expect(
      withRetries(
        async () => {
          calls += 1;
          throw new Error('busy');
        },
        () => ({ retry: true }),
        policy,
      ),
    ).rejects.toThrow('busy');
    expect(calls).toBe(3);

    calls = 0;
    await expect(
      withRetries(
        async () => {
          calls += 1;
          throw new Error('no');
        },
        () => ({ retry: false }),
        policy,
      ),
    ).rejects.toThrow('no');
    expect(calls).toBe(1);

    calls = 0;
    await expect(
      withRetries(
        async () => {
          calls += 1;
          throw new Error('later');
        },
        () => ({ retry: true, retryAfterMs: 5000 }),
        policy,
      ),
    ).rejects.toThrow('later');
    expect(calls).toBe(1); // a server asking for more than maxRetryAfterMs is not waited for
  });

  it('an abort during the wait between attempts rejects with an Error that keeps the reason as its cause', async () => {
    const policy = {
      maxRetries: 2,
      baseDelayMs: 60_000,
      maxDelayMs: 60_000,
      maxRetryAfterMs: 1000,
    };
    const controller = new AbortController();
    const retrying = withRetries(
      async () => {
        throw new Error('busy');
      },
      () => {
        queueMicrotask(() => controller.abort('stop')); // once the first failure is judged retryable
        return { retry: true };
      },
      policy,
      controller.signal,
    );
    const error = await retrying.then(
      () => undefined,
      (reason: unknown) => reason,
    );
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).cause).toBe('stop');
  });
});
