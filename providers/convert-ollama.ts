/**
 * Our messages ↔ Ollama's native /api/chat format. Arguments are JSON objects
 * on this wire. Older Ollama servers give tool calls no id, so one is made up
 * (by the caller's `newId`) when a reply arrives and kept in our transcript;
 * on the way back it is sent as `id` / `tool_call_id` (newer servers use
 * them, older ones ignore them) beside `tool_name`, which every version reads.
 */
import type { ChatResponse, Message, Tool } from 'ollama';
import { makeError, q, X } from '@endo/errors';
import { argumentsAsObject } from './arguments-object.js';
import type { AssistantMessage, ChatMessage, ToolCall, ToolSchema } from './types.js';

interface OllamaWireToolCall {
  id?: string;
  function: { index?: number; name: string; arguments: Record<string, unknown> };
}

/** Ollama's message as the server reads it (the SDK's type lacks the id fields). */
export interface OllamaWireMessage extends Omit<Message, 'tool_calls'> {
  tool_calls?: OllamaWireToolCall[];
  tool_call_id?: string;
}

const toWireMessage = (message: ChatMessage): OllamaWireMessage => {
  switch (message.role) {
    case 'system':
    case 'user':
      return { role: message.role, content: message.content };
    case 'tool':
      return {
        role: 'tool',
        content: message.content,
        tool_name: message.name,
        tool_call_id: message.toolCallId,
      };
    case 'assistant': {
      const calls = message.toolCalls ?? [];
      if (calls.length === 0) return { role: 'assistant', content: message.content };
      return {
        role: 'assistant',
        content: message.content,
        tool_calls: calls.map((call, index) => ({
          id: call.id,
          function: { index, name: call.name, arguments: argumentsAsObject(call.arguments) },
        })),
      };
    }
    default: {
      const unknown: never = message;
      // The role alone: the message's text is the conversation's, not the error's.
      throw makeError(X`Unknown message role ${q((unknown as { role: unknown }).role)}`);
    }
  }
};

export const toOllamaMessages = (messages: readonly ChatMessage[]): OllamaWireMessage[] =>
  messages.map(toWireMessage);
harden(toOllamaMessages);

export const toOllamaTools = (tools: readonly ToolSchema[]): Tool[] =>
  tools.map(tool => ({
    type: 'function',
    function: {
      name: tool.function.name,
      description: tool.function.description,
      parameters: tool.function.parameters as NonNullable<Tool['function']['parameters']>,
    },
  }));
harden(toOllamaTools);

interface WireReplyCall {
  id?: unknown;
  function?: { name?: unknown; arguments?: unknown };
}

const fromWireCall = (call: WireReplyCall, newId: () => string): ToolCall => {
  const args = call.function?.arguments;
  return {
    id: typeof call.id === 'string' && call.id !== '' ? call.id : newId(),
    name: typeof call.function?.name === 'string' ? call.function.name : '',
    // Kept as the server gave it when it is already text, so nothing is lost.
    arguments: typeof args === 'string' ? args : JSON.stringify(args ?? {}),
  };
};

export const fromOllamaMessage = (
  reply: ChatResponse['message'],
  newId: () => string,
): AssistantMessage => {
  const wireCalls = (reply.tool_calls ?? []) as WireReplyCall[];
  const toolCalls = wireCalls.map(call => fromWireCall(call, newId));
  const content = reply.content ?? '';
  return toolCalls.length > 0
    ? { role: 'assistant', content, toolCalls }
    : { role: 'assistant', content };
};
harden(fromOllamaMessage);
