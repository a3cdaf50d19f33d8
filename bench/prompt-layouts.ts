/**
 * A request laid out as text the way a model reads it, for counting tokens
 * with a real tokenizer. Two orders: a chat template's (Qwen3's: the system
 * text, then the tool definitions, in the first system block, then the
 * messages) and Anthropic's (tools, system, messages). Qwen3's template is
 * written out by hand here: the tokenizer package cannot parse the template
 * it ships. Both layouts are made of pieces (one per tool, system text,
 * message), so the bench can tell which part of a request changed.
 */
import type { ChatMessage, ToolSchema } from '../providers/types.js';

/** JSON as Jinja's `tojson` writes it in Hugging Face templates: ", " and ": " separators. */
const templateJson = (value: unknown): string => {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map(templateJson).join(', ')}]`;
  const entries = Object.entries(value as Record<string, unknown>).filter(
    ([, item]) => item !== undefined,
  );
  return `{${entries.map(([key, item]) => `${JSON.stringify(key)}: ${templateJson(item)}`).join(', ')}}`;
};

const TOOLS_HEAD =
  '# Tools\n\nYou may call one or more functions to assist with the user query.\n\nYou are provided with function signatures within <tools></tools> XML tags:\n<tools>';
const TOOLS_TAIL =
  '\n</tools>\n\nFor each function call, return a json object with function name and arguments within <tool_call></tool_call> XML tags:\n<tool_call>\n{"name": <function-name>, "arguments": <args-json-object>}\n</tool_call>';

const block = (role: string, content: string) => `<|im_start|>${role}\n${content}<|im_end|>\n`;

/** The messages after the system prompt, one piece per message (tool results grouped as the template does). */
const messagePieces = (messages: readonly ChatMessage[]): string[] => {
  const pieces: string[] = [];
  let results: string[] = [];
  const flush = () => {
    if (results.length > 0) pieces.push(`<|im_start|>user${results.join('')}<|im_end|>\n`);
    results = [];
  };
  for (const message of messages) {
    if (message.role === 'tool') {
      results.push(`\n<tool_response>\n${message.content}\n</tool_response>`);
      continue;
    }
    flush();
    if (message.role === 'system' || message.role === 'user')
      pieces.push(block(message.role, message.content));
    else {
      const calls = (message.toolCalls ?? []).map(
        (call, index) =>
          `${index > 0 || message.content !== '' ? '\n' : ''}<tool_call>\n{"name": "${call.name}", "arguments": ${call.arguments}}\n</tool_call>`,
      );
      pieces.push(block('assistant', `${message.content}${calls.join('')}`));
    }
  }
  flush();
  return pieces;
};

const split = (messages: readonly ChatMessage[]) => {
  const system = messages[0]?.role === 'system' ? messages[0].content : undefined;
  return { system, rest: system === undefined ? messages : messages.slice(1) };
};

/** Qwen3's chat template: the system text, then the tools, in one system block; then the messages. */
export const chatTemplatePieces = (
  messages: readonly ChatMessage[],
  tools: readonly ToolSchema[],
): string[] => {
  const { system, rest } = split(messages);
  const head =
    tools.length === 0
      ? system === undefined
        ? []
        : [`<|im_start|>system\n${system}`]
      : [
          `<|im_start|>system\n${system === undefined ? '' : `${system}\n\n`}${TOOLS_HEAD}`,
          ...tools.map(tool => `\n${templateJson(tool)}`),
          TOOLS_TAIL,
        ];
  return [...head, ...(head.length > 0 ? ['<|im_end|>\n'] : []), ...messagePieces(rest)];
};
harden(chatTemplatePieces);

/** Anthropic's order: the tools, then the system prompt, then the messages. */
export const anthropicOrderPieces = (
  messages: readonly ChatMessage[],
  tools: readonly ToolSchema[],
): string[] => {
  const { system, rest } = split(messages);
  return [
    ...tools.map(
      tool =>
        `${templateJson({ name: tool.function.name, description: tool.function.description, input_schema: tool.function.parameters })}\n`,
    ),
    ...(system === undefined ? [] : [block('system', system)]),
    ...messagePieces(rest),
  ];
};
harden(anthropicOrderPieces);
