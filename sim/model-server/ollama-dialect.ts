/**
 * The native Ollama double: POST /api/chat (non-streaming, or NDJSON when
 * `stream` is true or absent, as the real server defaults), GET /api/tags and
 * /api/version. Errors are `{ error: string }`. Like the real server (Go
 * JSON decoding), it refuses tool-call arguments that are not an object and
 * content that is not a string.
 */
import { estimateTokens, isRecord } from './wire-dialect.js';
import type { ParsedChat, WireDialect, WireError } from './wire-dialect.js';
import type { NormalizedMessage, NormalizedToolCall } from './types.js';
import { ollamaParametersProblem } from './tool-schema-rules.js';
import { ollamaStream } from './stream-frames.js';

const ollamaError = (status: number, message: string): WireError => ({
  status,
  body: { error: message },
});

const goType = (value: unknown) =>
  value === null
    ? 'null'
    : Array.isArray(value)
      ? 'array'
      : typeof value === 'boolean'
        ? 'bool'
        : typeof value;

const cannotUnmarshal = (value: unknown, field: string, into: string) =>
  ollamaError(
    400,
    `json: cannot unmarshal ${goType(value)} into Go struct field ${field} of type ${into}`,
  );

const readToolCalls = (calls: unknown, messageIndex: number): NormalizedToolCall[] | WireError => {
  if (!Array.isArray(calls))
    return cannotUnmarshal(calls, 'Message.messages.tool_calls', '[]api.ToolCall');
  const read: NormalizedToolCall[] = [];
  for (const [index, call] of calls.entries()) {
    if (!isRecord(call) || !isRecord(call.function))
      return cannotUnmarshal(call, 'Message.messages.tool_calls', 'api.ToolCall');
    const { name, arguments: args } = call.function;
    if (typeof name !== 'string')
      return cannotUnmarshal(name, 'ToolCallFunction.messages.tool_calls.function.name', 'string');
    if (!isRecord(args)) {
      return cannotUnmarshal(
        args,
        'ToolCallFunction.messages.tool_calls.function.arguments',
        'map[string]interface {}',
      );
    }
    const id =
      typeof call.id === 'string' && call.id !== ''
        ? call.id
        : `(message ${messageIndex} call ${index})`;
    read.push({ id, name, arguments: args });
  }
  return read;
};

const readMessages = (messages: unknown): NormalizedMessage[] | WireError => {
  if (messages === undefined || messages === null) return [];
  if (!Array.isArray(messages))
    return cannotUnmarshal(messages, 'ChatRequest.messages', '[]api.Message');
  const read: NormalizedMessage[] = [];
  for (const [index, message] of messages.entries()) {
    if (!isRecord(message)) return cannotUnmarshal(message, 'ChatRequest.messages', 'api.Message');
    const role = typeof message.role === 'string' ? message.role.toLowerCase() : '';
    if (message.content !== undefined && typeof message.content !== 'string') {
      return cannotUnmarshal(message.content, 'Message.messages.content', 'string');
    }
    const text = message.content ?? '';
    if (role === 'assistant' && message.tool_calls !== undefined && message.tool_calls !== null) {
      const calls = readToolCalls(message.tool_calls, index);
      if (!Array.isArray(calls)) return calls;
      read.push({ role: 'assistant', text, toolCalls: calls });
    } else if (role === 'tool') {
      read.push({
        role: 'tool',
        text,
        ...(typeof message.tool_call_id === 'string' ? { toolCallId: message.tool_call_id } : {}),
        ...(typeof message.tool_name === 'string' ? { toolName: message.tool_name } : {}),
      });
    } else if (role === 'system' || role === 'user' || role === 'assistant') {
      read.push({ role, text });
    } else {
      return ollamaError(400, `invalid role: ${JSON.stringify(message.role)}`);
    }
  }
  return read;
};

const readToolNames = (tools: unknown): string[] | WireError => {
  if (tools === undefined || tools === null) return [];
  if (!Array.isArray(tools)) return cannotUnmarshal(tools, 'ChatRequest.tools', 'api.Tools');
  const names: string[] = [];
  for (const tool of tools) {
    if (!isRecord(tool) || !isRecord(tool.function) || typeof tool.function.name !== 'string') {
      return cannotUnmarshal(tool, 'ChatRequest.tools', 'api.Tool');
    }
    const problem = ollamaParametersProblem(tool.function.parameters);
    if (problem !== undefined) return ollamaError(400, problem);
    names.push(tool.function.name);
  }
  return names;
};

const parseChat = (body: unknown): { chat: ParsedChat } | { error: WireError } => {
  if (!isRecord(body)) return { error: ollamaError(400, 'missing request body') };
  if (typeof body.model !== 'string' || body.model === '')
    return { error: ollamaError(400, 'model is required') };
  const messages = readMessages(body.messages);
  if (!Array.isArray(messages)) return { error: messages };
  const toolNames = readToolNames(body.tools);
  if (!Array.isArray(toolNames)) return { error: toolNames };
  const options = isRecord(body.options) ? body.options : {};
  return {
    chat: {
      model: body.model,
      messages,
      toolNames,
      maxTokens: typeof options.num_predict === 'number' ? options.num_predict : undefined,
    },
  };
};

const statusText = (status: number) =>
  status === 429
    ? 'too many requests'
    : status >= 500
      ? 'internal server error'
      : `request failed with status ${status}`;

export const ollamaDialect: WireDialect = {
  protocol: 'ollama',
  basePath: '',
  chatPath: '/api/chat',
  getRoutes: {
    '/api/version': () => ({ version: '0.12.0' }),
    '/api/tags': models => ({
      models: models.map(name => ({
        name,
        model: name,
        modified_at: '2026-01-01T00:00:00Z',
        size: 0,
        digest: '0'.repeat(64),
        details: {
          format: 'gguf',
          family: 'double',
          parameter_size: '0B',
          quantization_level: 'none',
        },
      })),
    }),
  },
  checkAuth: (headers, apiKey) => {
    if (apiKey === undefined) return undefined;
    return headers.authorization === `Bearer ${apiKey}`
      ? undefined
      : ollamaError(401, 'unauthorized');
  },
  parseChat,
  modelNotFound: model => ollamaError(404, `model '${model}' not found`),
  errorBody: (status, message) => ({ error: message ?? statusText(status) }),
  renderAnswer: (answer, request, rawBody) => {
    const calls = [];
    for (const [index, call] of (answer.toolCalls ?? []).entries()) {
      let args: unknown = call.arguments;
      if (typeof args === 'string') {
        try {
          args = JSON.parse(args);
        } catch {
          args = undefined;
        }
      }
      if (!isRecord(args)) {
        return ollamaError(
          500,
          `test script error: Ollama tool call arguments must be an object; got ${JSON.stringify(call.arguments)}`,
        );
      }
      // Older servers send no id; a script that gives one gets the newer shape.
      calls.push({
        ...(call.id === undefined ? {} : { id: call.id }),
        function: { index, name: call.name, arguments: args },
      });
    }
    const text = answer.text ?? '';
    const usage = answer.usage ?? {
      inputTokens: estimateTokens(JSON.stringify(request.messages)),
      outputTokens: estimateTokens(text + JSON.stringify(calls)),
    };
    const createdAt = new Date().toISOString();
    const message = {
      role: 'assistant',
      content: text,
      ...(calls.length > 0 ? { tool_calls: calls } : {}),
    };
    const final = {
      model: request.model,
      created_at: createdAt,
      message,
      done: true,
      done_reason: answer.truncated ? 'length' : 'stop',
      total_duration: 1000,
      load_duration: 100,
      prompt_eval_count: usage.inputTokens,
      prompt_eval_duration: 500,
      eval_count: usage.outputTokens,
      eval_duration: 400,
    };
    const streaming = !isRecord(rawBody) || rawBody.stream !== false;
    return streaming ? { status: 200, stream: ollamaStream(final) } : { status: 200, body: final };
  },
};
harden(ollamaDialect);
