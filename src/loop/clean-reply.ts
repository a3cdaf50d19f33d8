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
import { parseJson } from '../reply/formats/json-text.js';
import { stripThinking } from '../reply/strip-thinking.js';

/** A call's identity for spotting the same call twice: its name and its arguments, re-serialised. */
const sameCallKey = (name: string, args: unknown): string => {
  if (typeof args !== 'string') return `${name} ${JSON.stringify(args)}`;
  const parsed = parseJson(args);
  return `${name} ${parsed.ok ? JSON.stringify(parsed.value) : args}`;
};

export const cleanReply = (
  reply: AssistantMessage,
  tools: readonly ToolSchema[],
): AssistantMessage => {
  const withoutThinking = stripThinking(reply.content ?? '');
  const recovered = recoverToolCalls(withoutThinking, offeredTools(tools));
  const structured = reply.toolCalls ?? [];
  // Some servers parse a call and also leave its markup in the text: run it once.
  const parsedAlready = new Set(structured.map(call => sameCallKey(call.name, call.arguments)));
  const fresh = recovered.calls.filter(
    call => !parsedAlready.has(sameCallKey(call.name, call.arguments)),
  );
  const calls: ToolCall[] = [...structured, ...fresh.map(call => ({ id: '', ...call }))];
  const content = recovered.text;
  return calls.length > 0
    ? { role: 'assistant', content, toolCalls: calls }
    : { role: 'assistant', content };
};
harden(cleanReply);
