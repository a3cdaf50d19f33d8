/**
 * A token estimate that needs no tokenizer: about four characters a token
 * for English and JSON, which errs high for code-heavy text. Providers that
 * report usage let the benchmark check it.
 */
import type { ChatMessage, ToolSchema } from '../../providers/types.js';

export const CHARS_PER_TOKEN = 4;
// Role markers and separators each message costs in every chat template.
const PER_MESSAGE_OVERHEAD = 4;

export const estimateTextTokens = (text: string): number => Math.ceil(text.length / CHARS_PER_TOKEN);

export const estimateMessageTokens = (message: ChatMessage): number => {
  let chars = message.content.length;
  if (message.role === 'assistant' && message.toolCalls !== undefined) {
    for (const call of message.toolCalls) chars += call.name.length + call.arguments.length + call.id.length + 16;
  }
  if (message.role === 'tool') chars += message.toolCallId.length + message.name.length;
  return Math.ceil(chars / CHARS_PER_TOKEN) + PER_MESSAGE_OVERHEAD;
};

export const estimateToolTokens = (tools: readonly ToolSchema[]): number =>
  estimateTextTokens(JSON.stringify(tools));

export const estimateRequestTokens = (messages: readonly ChatMessage[], tools: readonly ToolSchema[]): number =>
  messages.reduce((sum, message) => sum + estimateMessageTokens(message), 0) + estimateToolTokens(tools);
