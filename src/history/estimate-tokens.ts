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

/** Estimated tokens, and characters of text (contents, call arguments, schemas), of a request. */
export const measureRequest = (
  messages: readonly ChatMessage[],
  tools: readonly ToolSchema[],
): { estimatedTokens: number; chars: number } => {
  let tokens = estimateToolTokens(tools);
  let chars = tools.reduce((sum, tool) => sum + toolChars(tool), 0);
  for (const message of messages) {
    tokens += estimateMessageTokens(message);
    chars += message.content.length;
    if (message.role === 'assistant') {
      for (const call of message.toolCalls ?? []) chars += call.arguments.length + call.name.length;
    }
  }
  return { estimatedTokens: tokens, chars };
};

export const estimateRequestTokens = (messages: readonly ChatMessage[], tools: readonly ToolSchema[]): number =>
  measureRequest(messages, tools).estimatedTokens;
