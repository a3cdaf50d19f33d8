/**
 * The Anthropic Messages double: POST /v1/messages, validating as the real
 * service does (an API key and the anthropic-version header, system only at the
 * top level, alternating roles starting with user, every tool_use answered by
 * a tool_result at the start of the next user turn) and answering errors as
 * `{ type: 'error', error: { type, message }, request_id }`.
 */
import { estimateTokens, isRecord, makeWireId } from './wire-dialect.js';
import type { ParsedChat, WireDialect, WireError } from './wire-dialect.js';
import type { NormalizedMessage, NormalizedToolCall } from './types.js';
import { metaSchemaProblem } from './tool-schema-rules.js';
import { anthropicStream } from './stream-frames.js';
import type { PromptCache } from './prompt-cache.js';

const errorTypes: Record<number, string> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  403: 'permission_error',
  404: 'not_found_error',
  413: 'request_too_large',
  429: 'rate_limit_error',
  500: 'api_error',
  529: 'overloaded_error',
};

const anthropicError = (status: number, message: string): WireError => ({
  status,
  body: {
    type: 'error',
    error: {
      type: errorTypes[status] ?? (status >= 500 ? 'api_error' : 'invalid_request_error'),
      message,
    },
    request_id: makeWireId('req_'),
  },
});

const invalid = (message: string) => anthropicError(400, message);

const TOOL_ID = /^[a-zA-Z0-9_-]+$/;
const TOOL_NAME = /^[a-zA-Z0-9_-]{1,128}$/;

/** One message's blocks, as a list (a string content is one text block). */
const blocksOf = (content: unknown, at: string): Record<string, unknown>[] | WireError => {
  if (typeof content === 'string') {
    if (content === '')
      return invalid(
        `${at}: all messages must have non-empty content except for the optional final assistant message`,
      );
    return [{ type: 'text', text: content }];
  }
  if (!Array.isArray(content)) return invalid(`${at}.content: Input should be a valid list`);
  if (content.length === 0)
    return invalid(
      `${at}: all messages must have non-empty content except for the optional final assistant message`,
    );
  const blocks: Record<string, unknown>[] = [];
  for (const [index, block] of content.entries()) {
    if (!isRecord(block) || typeof block.type !== 'string')
      return invalid(`${at}.content.${index}: Input should be a valid dictionary`);
    if (block.type === 'text' && (typeof block.text !== 'string' || block.text === '')) {
      return invalid('messages: text content blocks must be non-empty');
    }
    blocks.push(block);
  }
  return blocks;
};

const readMessages = (messages: unknown): NormalizedMessage[] | WireError => {
  if (!Array.isArray(messages)) return invalid('messages: Field required');
  if (messages.length === 0) return invalid('messages: at least one message is required');
  const read: NormalizedMessage[] = [];
  let previousRole: string | undefined;
  let unanswered: string[] = [];
  for (const [index, message] of messages.entries()) {
    const at = `messages.${index}`;
    if (!isRecord(message)) return invalid(`${at}: Input should be a valid dictionary`);
    const { role } = message;
    if (role === 'system') {
      return invalid(
        'messages: Unexpected role "system". The Messages API accepts a top-level `system` parameter, not "system" as an input message role.',
      );
    }
    if (role !== 'user' && role !== 'assistant')
      return invalid(`${at}.role: Input should be 'user' or 'assistant'`);
    if (index === 0 && role !== 'user')
      return invalid('messages: first message must use the "user" role');
    if (role === previousRole) {
      return invalid(
        `messages: roles must alternate between "user" and "assistant", but found multiple "${role}" roles in a row`,
      );
    }
    const blocks = blocksOf(message.content, at);
    if (!Array.isArray(blocks)) return blocks;

    if (role === 'user') {
      // The tool results must open this turn and answer exactly the calls before it.
      const leadingResults: string[] = [];
      for (const block of blocks) {
        if (block.type !== 'tool_result') break;
        leadingResults.push(String(block.tool_use_id));
      }
      const missing = unanswered.filter(id => !leadingResults.includes(id));
      if (missing.length > 0) {
        return invalid(
          `messages.${index - 1}: \`tool_use\` ids were found without \`tool_result\` blocks immediately after: ${missing.join(', ')}. Each \`tool_use\` block must have a corresponding \`tool_result\` block in the next message.`,
        );
      }
      for (const [blockIndex, block] of blocks.entries()) {
        if (block.type === 'tool_result' && !unanswered.includes(String(block.tool_use_id))) {
          return invalid(
            `${at}.content.${blockIndex}: unexpected \`tool_use_id\` found in \`tool_result\` blocks: ${String(block.tool_use_id)}. Each \`tool_result\` block must have a corresponding \`tool_use\` block in the previous message.`,
          );
        }
        if (block.type === 'tool_use')
          return invalid(
            `${at}.content.${blockIndex}: \`tool_use\` blocks can only be in \`assistant\` messages`,
          );
      }
      for (const block of blocks) {
        if (block.type === 'tool_result') {
          const content = block.content;
          const text =
            typeof content === 'string'
              ? content
              : Array.isArray(content)
                ? content
                    .map(part => (isRecord(part) && typeof part.text === 'string' ? part.text : ''))
                    .join('')
                : '';
          read.push({ role: 'tool', text, toolCallId: String(block.tool_use_id) });
        } else if (block.type === 'text') {
          read.push({ role: 'user', text: String(block.text) });
        }
      }
      unanswered = [];
    } else {
      const calls: NormalizedToolCall[] = [];
      const texts: string[] = [];
      for (const [blockIndex, block] of blocks.entries()) {
        const where = `${at}.content.${blockIndex}`;
        if (block.type === 'tool_result')
          return invalid(`${where}: \`tool_result\` blocks can only be in \`user\` messages`);
        if (block.type === 'text') texts.push(String(block.text));
        if (block.type === 'tool_use') {
          if (typeof block.id !== 'string' || !TOOL_ID.test(block.id))
            return invalid(`${where}.tool_use.id: String should match pattern '^[a-zA-Z0-9_-]+$'`);
          if (typeof block.name !== 'string' || !TOOL_NAME.test(block.name))
            return invalid(
              `${where}.tool_use.name: String should match pattern '^[a-zA-Z0-9_-]{1,128}$'`,
            );
          if (!isRecord(block.input))
            return invalid(`${where}.tool_use.input: Input should be a valid dictionary`);
          calls.push({ id: block.id, name: block.name, arguments: block.input });
        }
      }
      unanswered = calls.map(call => call.id);
      read.push({
        role: 'assistant',
        text: texts.join(''),
        ...(calls.length > 0 ? { toolCalls: calls } : {}),
      });
    }
    previousRole = role;
  }
  if (unanswered.length > 0) {
    return invalid(
      `messages.${messages.length - 1}: \`tool_use\` ids were found without \`tool_result\` blocks immediately after: ${unanswered.join(', ')}. Each \`tool_use\` block must have a corresponding \`tool_result\` block in the next message.`,
    );
  }
  return read;
};

const readSystem = (system: unknown): string | WireError | undefined => {
  if (system === undefined) return undefined;
  if (typeof system === 'string') return system;
  if (
    Array.isArray(system) &&
    system.every(
      block => isRecord(block) && block.type === 'text' && typeof block.text === 'string',
    )
  ) {
    return system.map(block => String((block as Record<string, unknown>).text)).join('\n');
  }
  return invalid('system: Input should be a valid string or a list of text blocks');
};

const readToolNames = (tools: unknown): string[] | WireError => {
  if (tools === undefined) return [];
  if (!Array.isArray(tools)) return invalid('tools: Input should be a valid list');
  const names: string[] = [];
  for (const [index, tool] of tools.entries()) {
    if (!isRecord(tool) || typeof tool.name !== 'string' || !TOOL_NAME.test(tool.name)) {
      return invalid(
        `tools.${index}.custom.name: String should match pattern '^[a-zA-Z0-9_-]{1,128}$'`,
      );
    }
    if (!isRecord(tool.input_schema) || tool.input_schema.type !== 'object') {
      return invalid(`tools.${index}.custom.input_schema.type: Input should be 'object'`);
    }
    if (
      ['oneOf', 'anyOf', 'allOf'].some(key => key in (tool.input_schema as Record<string, unknown>))
    ) {
      return invalid(
        `tools.${index}.custom.input_schema: input_schema does not support oneOf, allOf, or anyOf at the top level`,
      );
    }
    const problem = metaSchemaProblem(tool.input_schema);
    if (problem !== undefined) {
      return invalid(
        `tools.${index}.custom.input_schema: JSON schema is invalid. It must match JSON Schema draft 2020-12 (https://json-schema.org/draft/2020-12). (${problem})`,
      );
    }
    names.push(tool.name);
  }
  return names;
};

/** The most `cache_control` breakpoints one request may set. */
const MAX_CACHE_BREAKPOINTS = 4;
const CACHE_TTLS = ['5m', '1h'];

/** Everything that can carry `cache_control`, in the order the service reads the prompt: tools, system, message blocks. */
const cacheableParts = (
  body: Record<string, unknown>,
): { at: string; part: Record<string, unknown> }[] => {
  const parts: { at: string; part: Record<string, unknown> }[] = [];
  if (Array.isArray(body.tools)) {
    body.tools.forEach((tool, index) => {
      if (isRecord(tool)) parts.push({ at: `tools.${index}`, part: tool });
    });
  }
  if (Array.isArray(body.system)) {
    body.system.forEach((block, index) => {
      if (isRecord(block)) parts.push({ at: `system.${index}`, part: block });
    });
  } else if (typeof body.system === 'string' && body.system !== '') {
    parts.push({ at: 'system', part: { type: 'text', text: body.system } });
  }
  if (Array.isArray(body.messages)) {
    body.messages.forEach((message, index) => {
      if (!isRecord(message)) return;
      const content =
        typeof message.content === 'string'
          ? [{ type: 'text', text: message.content }]
          : message.content;
      if (!Array.isArray(content)) return;
      content.forEach((block, blockIndex) => {
        if (isRecord(block))
          parts.push({
            at: `messages.${index}.content.${blockIndex}`,
            part: { role: message.role, ...block },
          });
      });
    });
  }
  return parts;
};

/** Checks `cache_control` as the service does: the ephemeral type, a known ttl, at most four breakpoints. */
const checkCacheControl = (body: Record<string, unknown>): WireError | undefined => {
  let count = 0;
  for (const { at, part } of cacheableParts(body)) {
    const control = part.cache_control;
    if (control === undefined || control === null) continue;
    if (!isRecord(control) || control.type !== 'ephemeral')
      return invalid(`${at}.cache_control.type: Input should be 'ephemeral'`);
    if (control.ttl !== undefined && !CACHE_TTLS.includes(String(control.ttl))) {
      return invalid(`${at}.cache_control.ttl: Input should be '5m' or '1h'`);
    }
    count += 1;
  }
  if (count > MAX_CACHE_BREAKPOINTS) {
    return invalid(
      `A maximum of ${MAX_CACHE_BREAKPOINTS} blocks with cache_control may be provided. Found ${count}.`,
    );
  }
  return undefined;
};

/** Reads the request through the prompt cache: prefixes are cached only where a breakpoint ends them. */
const readCache = (rawBody: unknown, cache: PromptCache) => {
  const parts = isRecord(rawBody) ? cacheableParts(rawBody) : [];
  const segments = parts.map(({ part }) => {
    const { cache_control: _control, ...content } = part;
    return JSON.stringify(content);
  });
  const breakpoints = parts.flatMap(({ part }, index) =>
    isRecord(part.cache_control) ? [index + 1] : [],
  );
  return cache.read(segments, breakpoints);
};

const parseChat = (
  body: unknown,
  headers: Record<string, string | string[] | undefined>,
): { chat: ParsedChat } | { error: WireError } => {
  if (headers['anthropic-version'] === undefined)
    return { error: invalid('anthropic-version: header is required') };
  if (!isRecord(body))
    return {
      error: invalid('There was an issue with your request body: it must be a JSON object'),
    };
  if (typeof body.model !== 'string' || body.model === '')
    return { error: invalid('model: Field required') };
  if (
    typeof body.max_tokens !== 'number' ||
    !Number.isInteger(body.max_tokens) ||
    body.max_tokens < 1
  ) {
    return { error: invalid('max_tokens: Field required') };
  }
  if (body.stream !== undefined && typeof body.stream !== 'boolean')
    return { error: invalid('stream: Input should be a valid boolean') };
  const system = readSystem(body.system);
  if (typeof system === 'object') return { error: system };
  const cacheError = checkCacheControl(body);
  if (cacheError !== undefined) return { error: cacheError };
  const messages = readMessages(body.messages);
  if (!Array.isArray(messages)) return { error: messages };
  const toolNames = readToolNames(body.tools);
  if (!Array.isArray(toolNames)) return { error: toolNames };
  return {
    chat: {
      model: body.model,
      messages: system === undefined ? messages : [{ role: 'system', text: system }, ...messages],
      toolNames,
      maxTokens: body.max_tokens,
    },
  };
};

export const anthropicDialect: WireDialect = {
  protocol: 'anthropic',
  basePath: '',
  chatPath: '/v1/messages',
  getRoutes: {
    '/v1/models': models => ({
      data: models.map(id => ({
        type: 'model',
        id,
        display_name: id,
        created_at: '2026-01-01T00:00:00Z',
      })),
      has_more: false,
      first_id: models[0] ?? null,
      last_id: models[models.length - 1] ?? null,
    }),
  },
  checkAuth: (headers, apiKey) => {
    // The SDK (1.12.0) sends the API key as `Authorization: Bearer`; older
    // clients and curl use `x-api-key`. Either carries the key.
    const header = headers['x-api-key'];
    const given =
      typeof header === 'string' && header !== ''
        ? header
        : /^Bearer (.+)$/.exec(headers.authorization ?? '')?.[1];
    if (given === undefined) return anthropicError(401, 'x-api-key header is required');
    if (apiKey !== undefined && given !== apiKey) return anthropicError(401, 'invalid x-api-key');
    return undefined;
  },
  parseChat,
  modelNotFound: model => anthropicError(404, `model: ${model}`),
  errorBody: (status, message) =>
    anthropicError(
      status,
      message ??
        (status === 429
          ? 'Number of request tokens has exceeded your per-minute rate limit'
          : status === 529
            ? 'Overloaded'
            : status >= 500
              ? 'Internal server error'
              : `Request failed with status ${status}`),
    ).body,
  renderAnswer: (answer, request, rawBody, cache) => {
    const content: Record<string, unknown>[] = [];
    if (answer.text !== undefined && answer.text !== '')
      content.push({ type: 'text', text: answer.text });
    for (const call of answer.toolCalls ?? []) {
      let input: unknown = call.arguments;
      if (typeof input === 'string') {
        try {
          input = JSON.parse(input);
        } catch {
          input = undefined;
        }
      }
      if (!isRecord(input)) {
        return anthropicError(
          500,
          `Test script error: Anthropic tool_use input must be an object; got ${JSON.stringify(call.arguments)}`,
        );
      }
      content.push({
        type: 'tool_use',
        id: call.id ?? makeWireId('toolu_'),
        name: call.name,
        input,
      });
    }
    const reading = readCache(rawBody, cache);
    const usage = answer.usage ?? {
      inputTokens: reading.totalTokens,
      outputTokens: estimateTokens(JSON.stringify(content)),
    };
    // input_tokens is what was neither read from nor written to the cache.
    const cachedTokens = Math.min(
      usage.inputTokens,
      answer.usage?.cachedInputTokens ?? reading.cachedTokens,
    );
    const writtenTokens =
      answer.usage === undefined
        ? Math.min(reading.writtenTokens, usage.inputTokens - cachedTokens)
        : 0;
    const body = {
      id: makeWireId('msg_'),
      type: 'message',
      role: 'assistant',
      model: request.model,
      content,
      stop_reason: answer.truncated
        ? 'max_tokens'
        : (answer.toolCalls ?? []).length > 0
          ? 'tool_use'
          : 'end_turn',
      stop_sequence: null,
      usage: {
        input_tokens: usage.inputTokens - cachedTokens - writtenTokens,
        output_tokens: usage.outputTokens,
        cache_creation_input_tokens: writtenTokens,
        cache_read_input_tokens: cachedTokens,
        service_tier: 'standard',
      },
    };
    return isRecord(rawBody) && rawBody.stream === true
      ? { status: 200, stream: anthropicStream(body) }
      : { status: 200, body };
  },
};
harden(anthropicDialect);
