/**
 * Makes a model's reply fit for the transcript: reasoning blocks removed,
 * tool calls written as text (in any known model family's format, naming a
 * tool offered in this request) moved into the structured field, and every
 * call given a unique id.
 */
import type { AssistantMessage, ToolCall, ToolSchema } from '../../providers/types.js';
import { offeredTools, recoverToolCalls } from '../reply/recover-tool-calls.js';
import { stripThinking } from '../reply/strip-thinking.js';

export const cleanReply = (reply: AssistantMessage, makeId: () => string, tools: readonly ToolSchema[] = []): AssistantMessage => {
  const withoutThinking = stripThinking(reply.content ?? '');
  const structured = reply.toolCalls ?? [];
  const recovered = recoverToolCalls(withoutThinking, offeredTools(tools));
  const seen = new Set<string>();
  const calls: ToolCall[] = [...structured, ...recovered.calls.map(call => ({ id: '', ...call }))].map(call => {
    let id = typeof call.id === 'string' && call.id !== '' ? call.id : makeId();
    if (seen.has(id)) id = makeId();
    seen.add(id);
    return {
      id,
      name: call.name,
      arguments: typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments ?? {}),
    };
  });
  const content = recovered.text;
  return calls.length > 0 ? { role: 'assistant', content, toolCalls: calls } : { role: 'assistant', content };
};
