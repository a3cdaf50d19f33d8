/**
 * Makes a model's reply fit for the transcript: reasoning blocks removed,
 * and tool calls written as text (in any known model family's format,
 * naming a tool offered in this request) moved into the structured field
 * after the structured ones. Names, ids and the per-reply cap are checked
 * next, for both kinds alike (./check-reply-calls.ts); recovered calls come
 * without an id and get one there.
 */
import type { AssistantMessage, ToolCall, ToolSchema } from '../../providers/types.js';
import { offeredTools, recoverToolCalls } from '../reply/recover-tool-calls.js';
import { stripThinking } from '../reply/strip-thinking.js';

export const cleanReply = (reply: AssistantMessage, tools: readonly ToolSchema[]): AssistantMessage => {
  const withoutThinking = stripThinking(reply.content ?? '');
  const recovered = recoverToolCalls(withoutThinking, offeredTools(tools));
  const calls: ToolCall[] = [...(reply.toolCalls ?? []), ...recovered.calls.map(call => ({ id: '', ...call }))];
  const content = recovered.text;
  return calls.length > 0 ? { role: 'assistant', content, toolCalls: calls } : { role: 'assistant', content };
};
