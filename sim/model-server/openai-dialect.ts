/**
 * The OpenAI Chat Completions double: POST /v1/chat/completions and
 * GET /v1/models, validating messages as the real service does and answering
 * errors as `{ error: { message, type, param, code } }`.
 */
import { estimateTokens, isRecord, makeWireId } from './wire-dialect.js';
import type { ParsedChat, WireDialect, WireError } from './wire-dialect.js';
import type { NormalizedMessage, NormalizedToolCall } from './types.js';
import { metaSchemaProblem } from './tool-schema-rules.js';
import type { PromptCache } from './prompt-cache.js';
import { openAIStream } from './stream-frames.js';

const errorTypeFor = (status: number): string =>
  status === 429 ? 'requests' : status >= 500 ? 'server_error' : 'invalid_request_error';

const openAIError = (
  status: number,
  message: string,
  {
    param = null,
    code = null,
    type = errorTypeFor(status),
  }: { param?: string | null; code?: string | null; type?: string } = {},
): WireError => ({ status, body: { error: { message, type, param, code } } });

const invalid = (message: string, param: string | null = null, code: string | null = null) =>
  openAIError(400, message, { param, code });

const ROLES = ['system', 'developer', 'user', 'assistant', 'tool', 'function'];
const TOOL_NAME = /^[a-zA-Z0-9_-]{1,64}$/;

/** Text of a content that is a string or an array of text parts. */
const contentText = (content: unknown): string | undefined => {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) {
    const parts = content.map(part =>
      isRecord(part) && typeof part.text === 'string' ? part.text : undefined,
    );
    return parts.every(part => part !== undefined) ? parts.join('') : undefined;
  }
  return undefined;
};

const recordOf = (value: unknown): Record<string, unknown> => (isRecord(value) ? value : {});

const typeName = (value: unknown) =>
  value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value;

const readToolCalls = (calls: unknown, at: string): NormalizedToolCall[] | WireError => {
  if (!Array.isArray(calls))
    return invalid(
      `Invalid type for '${at}': expected an array, but got ${typeName(calls)} instead.`,
      at,
      'invalid_type',
    );
  const read: NormalizedToolCall[] = [];
  for (const [index, call] of calls.entries()) {
    const where = `${at}[${index}]`;
    if (!isRecord(call))
      return invalid(
        `Invalid type for '${where}': expected an object, but got ${typeName(call)} instead.`,
        where,
        'invalid_type',
      );
    if (call.type === undefined)
      return invalid(
        `Missing required parameter: '${where}.type'.`,
        `${where}.type`,
        'missing_required_parameter',
      );
    if (call.type !== 'function')
      return invalid(
        `Invalid value: '${String(call.type)}'. Supported values are: 'function'.`,
        `${where}.type`,
        'invalid_value',
      );
    if (typeof call.id !== 'string')
      return invalid(
        `Missing required parameter: '${where}.id'.`,
        `${where}.id`,
        'missing_required_parameter',
      );
    const fn = call.function;
    if (!isRecord(fn))
      return invalid(
        `Missing required parameter: '${where}.function'.`,
        `${where}.function`,
        'missing_required_parameter',
      );
    if (typeof fn.name !== 'string')
      return invalid(
        `Missing required parameter: '${where}.function.name'.`,
        `${where}.function.name`,
        'missing_required_parameter',
      );
    if (typeof fn.arguments !== 'string') {
      return invalid(
        `Invalid type for '${where}.function.arguments': expected a string, but got ${typeName(fn.arguments)} instead.`,
        `${where}.function.arguments`,
        'invalid_type',
      );
    }
    read.push({ id: call.id, name: fn.name, arguments: fn.arguments });
  }
  return read;
};

const readMessages = (messages: unknown): NormalizedMessage[] | WireError => {
  if (!Array.isArray(messages) || messages.length === 0) {
    return invalid(
      "Missing required parameter: 'messages'.",
      'messages',
      'missing_required_parameter',
    );
  }
  const read: NormalizedMessage[] = [];
  /** Call ids of the last assistant message still waiting for their tool messages. */
  let pending: { ids: Set<string>; at: number } | undefined;
  for (const [index, message] of messages.entries()) {
    const at = `messages[${index}]`;
    if (!isRecord(message))
      return invalid(
        `Invalid type for '${at}': expected an object, but got ${typeName(message)} instead.`,
        at,
        'invalid_type',
      );
    const { role } = message;
    if (typeof role !== 'string' || !ROLES.includes(role)) {
      return invalid(
        `Invalid value: '${String(role)}'. Supported values are: 'system', 'assistant', 'user', 'function', 'tool', and 'developer'.`,
        `${at}.role`,
        'invalid_value',
      );
    }
    if (role !== 'tool' && pending !== undefined && pending.ids.size > 0) {
      return invalid(
        `An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. The following tool_call_ids did not have response messages: ${[...pending.ids].join(', ')}`,
        `messages.[${pending.at}].role`,
      );
    }
    const hasCalls =
      role === 'assistant' && message.tool_calls !== undefined && message.tool_calls !== null;
    const text =
      message.content === null || message.content === undefined
        ? undefined
        : contentText(message.content);
    const contentMissing = message.content === null || message.content === undefined;
    if (
      (contentMissing && !(role === 'assistant' && hasCalls)) ||
      (!contentMissing && text === undefined)
    ) {
      return invalid(
        `Invalid type for '${at}.content': expected one of a string or array of objects, but got ${typeName(message.content)} instead.`,
        `${at}.content`,
        'invalid_type',
      );
    }
    if (role === 'tool') {
      if (typeof message.tool_call_id !== 'string') {
        return invalid(
          `Missing required parameter: '${at}.tool_call_id'.`,
          `${at}.tool_call_id`,
          'missing_required_parameter',
        );
      }
      if (pending === undefined || !pending.ids.has(message.tool_call_id)) {
        return invalid(
          "Invalid parameter: messages with role 'tool' must be a response to a preceeding message with 'tool_calls'.",
          `messages.[${index}].role`,
        );
      }
      pending.ids.delete(message.tool_call_id);
      read.push({ role: 'tool', text: text ?? '', toolCallId: message.tool_call_id });
      continue;
    }
    pending = undefined;
    if (hasCalls) {
      const calls = readToolCalls(message.tool_calls, `${at}.tool_calls`);
      if (!Array.isArray(calls)) return calls;
      pending = { ids: new Set(calls.map(call => call.id)), at: index };
      read.push({ role: 'assistant', text: text ?? '', toolCalls: calls });
      continue;
    }
    read.push({
      role: role === 'developer' ? 'system' : (role as NormalizedMessage['role']),
      text: text ?? '',
    });
  }
  if (pending !== undefined && pending.ids.size > 0) {
    return invalid(
      `An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. The following tool_call_ids did not have response messages: ${[...pending.ids].join(', ')}`,
      `messages.[${pending.at}].role`,
    );
  }
  return read;
};

const readToolNames = (tools: unknown): string[] | WireError => {
  if (tools === undefined || tools === null) return [];
  if (!Array.isArray(tools))
    return invalid(
      `Invalid type for 'tools': expected an array, but got ${typeName(tools)} instead.`,
      'tools',
      'invalid_type',
    );
  const names: string[] = [];
  for (const [index, tool] of tools.entries()) {
    const at = `tools[${index}]`;
    if (!isRecord(tool) || tool.type !== 'function' || !isRecord(tool.function)) {
      return invalid(
        `Missing required parameter: '${at}.function'.`,
        `${at}.function`,
        'missing_required_parameter',
      );
    }
    const { name } = tool.function;
    if (typeof name !== 'string' || !TOOL_NAME.test(name)) {
      return invalid(
        `Invalid '${at}.function.name': string does not match pattern. Expected a string that matches the pattern '^[a-zA-Z0-9_-]+$'.`,
        `${at}.function.name`,
        'invalid_value',
      );
    }
    const { parameters } = tool.function;
    if (parameters !== undefined) {
      const problem =
        isRecord(parameters) && parameters.type !== 'object'
          ? `schema must be a JSON Schema of 'type: "object"', got 'type: "${String(parameters.type ?? 'None')}"'.`
          : metaSchemaProblem(parameters);
      if (problem !== undefined)
        return invalid(
          `Invalid schema for function '${name}': ${problem}`,
          `${at}.function.parameters`,
          'invalid_function_parameters',
        );
    }
    names.push(name);
  }
  return names;
};

const parseChat = (body: unknown): { chat: ParsedChat } | { error: WireError } => {
  if (!isRecord(body))
    return { error: invalid('We could not parse the JSON body of your request.') };
  if (typeof body.model !== 'string' || body.model === '')
    return { error: invalid('you must provide a model parameter') };
  if (body.stream !== undefined && body.stream !== null && typeof body.stream !== 'boolean')
    return {
      error: invalid(
        `Invalid type for 'stream': expected a boolean, but got ${typeName(body.stream)} instead.`,
        'stream',
        'invalid_type',
      ),
    };
  if (body.stream_options !== undefined && body.stream_options !== null && body.stream !== true)
    return {
      error: invalid(
        "The 'stream_options' parameter is only allowed when 'stream' is enabled.",
        'stream_options',
      ),
    };
  const messages = readMessages(body.messages);
  if (!Array.isArray(messages)) return { error: messages };
  const toolNames = readToolNames(body.tools);
  if (!Array.isArray(toolNames)) return { error: toolNames };
  const limit = body.max_completion_tokens ?? body.max_tokens;
  return {
    chat: {
      model: body.model,
      messages,
      toolNames,
      maxTokens: typeof limit === 'number' ? limit : undefined,
    },
  };
};

/**
 * Reads the request through the automatic prefix cache (tools, then messages,
 * as OpenAI and llama.cpp lay them out).
 */
const readCache = (rawBody: unknown, cache: PromptCache) => {
  const body = isRecord(rawBody) ? rawBody : {};
  const segments = [
    ...(Array.isArray(body.tools) ? body.tools : []),
    ...(Array.isArray(body.messages) ? body.messages : []),
  ].map(part => JSON.stringify(part));
  return cache.read(segments, 'every');
};

/** How OpenAI shows a wrong key: its first and last characters only. */
const maskKey = (key: string) =>
  key.length > 8 ? `${key.slice(0, 3)}${'*'.repeat(key.length - 7)}${key.slice(-4)}` : '****';

export const openAIDialect: WireDialect = {
  protocol: 'openai',
  basePath: '/v1',
  chatPath: '/v1/chat/completions',
  getRoutes: {
    '/v1/models': models => ({
      object: 'list',
      data: models.map(id => ({
        id,
        object: 'model',
        created: 1_700_000_000,
        owned_by: 'lal-fae-double',
      })),
    }),
  },
  checkAuth: (headers, apiKey) => {
    if (apiKey === undefined) return undefined;
    const given = /^Bearer (.*)$/.exec(headers.authorization ?? '')?.[1];
    if (given === undefined || given === '') {
      return openAIError(
        401,
        "You didn't provide an API key. You need to provide your API key in an Authorization header using Bearer auth (i.e. Authorization: Bearer YOUR_KEY).",
      );
    }
    if (given !== apiKey) {
      return openAIError(
        401,
        `Incorrect API key provided: ${maskKey(given)}. You can find your API key at https://platform.openai.com/account/api-keys.`,
        { code: 'invalid_api_key' },
      );
    }
    return undefined;
  },
  parseChat,
  modelNotFound: model =>
    openAIError(404, `The model \`${model}\` does not exist or you do not have access to it.`, {
      code: 'model_not_found',
    }),
  errorBody: (status, message) =>
    openAIError(
      status,
      message ??
        (status === 429
          ? 'Rate limit reached for requests.'
          : status >= 500
            ? 'The server had an error while processing your request. Sorry about that!'
            : `Request failed with status ${status}.`),
    ).body,
  renderAnswer: (answer, request, rawBody, cache) => {
    const calls = (answer.toolCalls ?? []).map(call => ({
      id: call.id ?? makeWireId('call_'),
      type: 'function' as const,
      function: {
        name: call.name,
        arguments:
          typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments),
      },
    }));
    const text = answer.text ?? '';
    const reading = readCache(rawBody, cache);
    const usage = answer.usage ?? {
      inputTokens: reading.totalTokens,
      outputTokens: estimateTokens(text + JSON.stringify(calls)),
    };
    const cachedTokens = Math.min(
      usage.inputTokens,
      answer.usage?.cachedInputTokens ?? reading.cachedTokens,
    );
    // llama.cpp reports its slot cache in `timings` (cache_n read, prompt_n evaluated) when asked to cache_prompt.
    const llamaCpp = isRecord(rawBody) && rawBody.cache_prompt === true;
    const body = {
      id: makeWireId('chatcmpl-'),
      object: 'chat.completion',
      created: Math.floor(Date.now() / 1000),
      model: request.model,
      choices: [
        {
          index: 0,
          message: {
            role: 'assistant',
            content: text === '' && calls.length > 0 ? null : text,
            refusal: null,
            ...(calls.length > 0 ? { tool_calls: calls } : {}),
            annotations: [],
          },
          logprobs: null,
          finish_reason: answer.truncated ? 'length' : calls.length > 0 ? 'tool_calls' : 'stop',
        },
      ],
      usage: {
        prompt_tokens: usage.inputTokens,
        completion_tokens: usage.outputTokens,
        total_tokens: usage.inputTokens + usage.outputTokens,
        ...(llamaCpp ? {} : { prompt_tokens_details: { cached_tokens: cachedTokens } }),
      },
      ...(llamaCpp
        ? {
            timings: {
              cache_n: cachedTokens,
              prompt_n: usage.inputTokens - cachedTokens,
              predicted_n: usage.outputTokens,
            },
          }
        : {}),
      system_fingerprint: null,
    };
    if (!isRecord(rawBody) || rawBody.stream !== true) return { status: 200, body };
    const includeUsage = recordOf(rawBody.stream_options).include_usage === true;
    return { status: 200, stream: openAIStream(body, includeUsage) };
  },
};
harden(openAIDialect);
