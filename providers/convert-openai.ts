/**
 * Our messages ↔ the OpenAI Chat Completions format (also spoken by
 * llama.cpp, vLLM, OpenRouter and Ollama's /v1). Arguments stay the raw JSON
 * text in both directions; every tool call carries `type: 'function'`, and
 * `content` is null beside tool calls when there is no text.
 */
import type OpenAI from 'openai';
import { makeError, q, X } from '@endo/errors';
import type { AssistantMessage, ChatMessage, ToolCall, ToolSchema } from './types.js';

type WireMessage = OpenAI.Chat.Completions.ChatCompletionMessageParam;
type WireTool = OpenAI.Chat.Completions.ChatCompletionFunctionTool;
type WireReply = OpenAI.Chat.Completions.ChatCompletionMessage;

const toWireMessage = (message: ChatMessage): WireMessage => {
  switch (message.role) {
    case 'system':
      return { role: 'system', content: message.content };
    case 'user':
      return { role: 'user', content: message.content };
    case 'tool':
      return { role: 'tool', tool_call_id: message.toolCallId, content: message.content };
    case 'assistant': {
      const calls = message.toolCalls ?? [];
      if (calls.length === 0) return { role: 'assistant', content: message.content };
      return {
        role: 'assistant',
        content: message.content === '' ? null : message.content,
        tool_calls: calls.map(call => ({
          id: call.id,
          type: 'function' as const,
          function: { name: call.name, arguments: call.arguments },
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

export const toOpenAIMessages = (messages: readonly ChatMessage[]): WireMessage[] =>
  messages.map(toWireMessage);
harden(toOpenAIMessages);

export const toOpenAITools = (tools: readonly ToolSchema[]): WireTool[] =>
  tools.map(tool => ({
    type: 'function',
    function: {
      name: tool.function.name,
      description: tool.function.description,
      parameters: tool.function.parameters,
    },
  }));
harden(toOpenAITools);

/** The reply's tool calls, whatever kind the server sent (function or custom). */
const fromWireCalls = (reply: WireReply): ToolCall[] =>
  (reply.tool_calls ?? []).map(call =>
    call.type === 'custom'
      ? { id: call.id, name: call.custom.name, arguments: call.custom.input }
      : { id: call.id, name: call.function.name, arguments: call.function.arguments ?? '' },
  );

export const fromOpenAIMessage = (reply: WireReply): AssistantMessage => {
  const toolCalls = fromWireCalls(reply);
  // A refusal is the model's answer too: keep it rather than an empty reply.
  const content = reply.content ?? reply.refusal ?? '';
  return toolCalls.length > 0
    ? { role: 'assistant', content, toolCalls }
    : { role: 'assistant', content };
};
harden(fromOpenAIMessage);
