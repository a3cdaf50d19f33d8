/**
 * Our messages ↔ the Anthropic Messages format. The leading system messages
 * become the top-level `system`; tool results become `tool_result` blocks in
 * the user turn that follows the call; consecutive same-role messages are
 * merged so roles alternate; arguments go over as the `input` object.
 */
import type Anthropic from '@anthropic-ai/sdk';
import { makeError, q, X } from '@endo/errors';
import { argumentsAsObject } from './arguments-object.js';
import type { AssistantMessage, ChatMessage, ToolCall, ToolSchema } from './types.js';

type WireMessage = Anthropic.Messages.MessageParam;
type WireBlock = Anthropic.Messages.ContentBlockParam;
type WireTool = Anthropic.Messages.Tool;
type WireReply = Anthropic.Messages.Message;

export interface AnthropicRequestParts {
  system: string | undefined;
  messages: WireMessage[];
}

/** Shown as the first user turn when a trimmed history starts with the assistant. */
export const OMITTED_HISTORY_NOTE = '(earlier conversation omitted)';
harden(OMITTED_HISTORY_NOTE);

/** Anthropic accepts tool ids matching [a-zA-Z0-9_-]+; ids from other services may not. */
const anthropicToolId = (id: string): string => {
  const safe = id.replace(/[^a-zA-Z0-9_-]/g, '_');
  return safe === '' ? 'call' : safe;
};

const blocksOf = (message: Exclude<ChatMessage, { role: 'system' }>): WireBlock[] => {
  switch (message.role) {
    case 'user':
      return message.content === '' ? [] : [{ type: 'text', text: message.content }];
    case 'tool':
      return [
        {
          type: 'tool_result',
          tool_use_id: anthropicToolId(message.toolCallId),
          ...(message.content === '' ? {} : { content: message.content }),
        },
      ];
    case 'assistant': {
      const text: WireBlock[] =
        message.content === '' ? [] : [{ type: 'text', text: message.content }];
      const calls: WireBlock[] = (message.toolCalls ?? []).map(call => ({
        type: 'tool_use',
        id: anthropicToolId(call.id),
        name: call.name,
        input: argumentsAsObject(call.arguments),
      }));
      return [...text, ...calls];
    }
    default: {
      const unknown: never = message;
      // The role alone: the message's text is the conversation's, not the error's.
      throw makeError(X`Unknown message role ${q((unknown as { role: unknown }).role)}`);
    }
  }
};

/** Tool results must open their user turn, ahead of any text. */
const resultsFirst = (blocks: WireBlock[]): WireBlock[] => [
  ...blocks.filter(block => block.type === 'tool_result'),
  ...blocks.filter(block => block.type !== 'tool_result'),
];

export const toAnthropicRequest = (messages: readonly ChatMessage[]): AnthropicRequestParts => {
  let leading = 0;
  while (messages[leading]?.role === 'system') leading += 1;
  const systemText = messages
    .slice(0, leading)
    .map(message => message.content)
    .join('\n\n');

  const turns: { role: 'user' | 'assistant'; blocks: WireBlock[] }[] = [];
  for (const message of messages.slice(leading)) {
    // A later system message (a notice) keeps its place, as user text.
    const blocks =
      message.role === 'system'
        ? message.content === ''
          ? []
          : [{ type: 'text' as const, text: message.content }]
        : blocksOf(message);
    if (blocks.length === 0) continue;
    const role = message.role === 'assistant' ? 'assistant' : 'user';
    const last = turns[turns.length - 1];
    if (last !== undefined && last.role === role) last.blocks.push(...blocks);
    else turns.push({ role, blocks: [...blocks] });
  }
  if (turns[0]?.role === 'assistant') {
    turns.unshift({ role: 'user', blocks: [{ type: 'text', text: OMITTED_HISTORY_NOTE }] });
  }
  return {
    system: systemText === '' ? undefined : systemText,
    messages: turns.map(turn => ({
      role: turn.role,
      content: turn.role === 'user' ? resultsFirst(turn.blocks) : turn.blocks,
    })),
  };
};
harden(toAnthropicRequest);

export const toAnthropicTools = (tools: readonly ToolSchema[]): WireTool[] =>
  tools.map(tool => ({
    name: tool.function.name,
    description: tool.function.description,
    // Anthropic requires an object schema; a tool without parameters gets an empty one.
    input_schema: { properties: {}, ...tool.function.parameters, type: 'object' },
  }));
harden(toAnthropicTools);

export const fromAnthropicMessage = (reply: WireReply): AssistantMessage => {
  const texts: string[] = [];
  const toolCalls: ToolCall[] = [];
  for (const block of reply.content) {
    // Thinking and server-tool blocks are not part of the transcript.
    if (block.type === 'text') texts.push(block.text);
    else if (block.type === 'tool_use') {
      toolCalls.push({
        id: block.id,
        name: block.name,
        // Text when a streamed input did not parse (cut short): kept as it came, never replaced.
        arguments:
          typeof block.input === 'string' ? block.input : JSON.stringify(block.input ?? {}),
      });
    }
  }
  const content = texts.join('');
  return toolCalls.length > 0
    ? { role: 'assistant', content, toolCalls }
    : { role: 'assistant', content };
};
harden(fromAnthropicMessage);
