/**
 * A token estimate that needs no tokenizer: about four characters a token
 * for English and JSON, which errs high for code-heavy text. Providers that
 * report usage let the benchmark check it.
 */
import type { ChatMessage, ToolSchema } from '../../providers/types.js';

export const CHARS_PER_TOKEN = 4;
// Role markers and separators each message costs in every chat template.
const PER_MESSAGE_OVERHEAD = 4;

export const estimateMessageTokens = (message: ChatMessage): number => {
  let chars = message.content.length;
  if (message.role === 'assistant' && message.toolCalls !== undefined) {
    for (const call of message.toolCalls) chars += call.name.length + call.arguments.length + call.id.length + 16;
  }
  if (message.role === 'tool') chars += message.toolCallId.length + message.name.length;
  return Math.ceil(chars / CHARS_PER_TOKEN) + PER_MESSAGE_OVERHEAD;
};

// A schema's JSON length, once per schema object (built-ins and adopted tools are reused).
const schemaChars = new WeakMap<ToolSchema, number>();
const toolChars = (tool: ToolSchema): number => {
  let chars = schemaChars.get(tool);
  if (chars === undefined) {
    chars = JSON.stringify(tool).length;
    schemaChars.set(tool, chars);
  }
  return chars;
};

export const estimateToolTokens = (tools: readonly ToolSchema[]): number =>
  Math.ceil(tools.reduce((sum, tool) => sum + toolChars(tool) + 1, 0) / CHARS_PER_TOKEN);

export const estimateRequestTokens = (messages: readonly ChatMessage[], tools: readonly ToolSchema[]): number =>
  messages.reduce((sum, message) => sum + estimateMessageTokens(message), 0) + estimateToolTokens(tools);

/** Characters of text a request carries (message contents, call arguments, tool schemas). */
export const requestChars = (messages: readonly ChatMessage[], tools: readonly ToolSchema[]): number =>
  messages.reduce(
    (sum, message) =>
      sum +
      message.content.length +
      (message.role === 'assistant' ? (message.toolCalls ?? []).reduce((inner, call) => inner + call.arguments.length + call.name.length, 0) : 0),
    0,
  ) + tools.reduce((sum, tool) => sum + toolChars(tool), 0);
