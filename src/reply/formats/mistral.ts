/**
 * Mistral, both forms after the `[TOOL_CALLS]` token:
 * - a JSON list, `[TOOL_CALLS][{"name": …, "arguments": {…}, "id": "…"}]`
 *   (Mistral 7B v0.3, Nemo; llama.cpp
 *   models/templates/mistralai-Mistral-Nemo-Instruct-2407.jinja, vLLM
 *   mistral_tool_parser.py);
 * - one call per token, `[TOOL_CALLS]name[ARGS]{…}`, with an optional
 *   `[CALL_ID]id` before `[ARGS]` (Mistral Small 3.2, Magistral, Ministral 3;
 *   llama.cpp tests/test-chat.cpp).
 * A `[THINK]…[/THINK]` block (Magistral) is reasoning and is dropped.
 */
import type { CallFormat, OfferedTools, TextCall } from './call-format.js';
import {
  callsFromList,
  endOfJsonValue,
  joinWords,
  NAME_ARGUMENTS,
  parseJson,
} from './json-text.js';

const MARK = '[TOOL_CALLS]';
const NAMED = /^([A-Za-z0-9_.-]+)(?:\[CALL_ID\][^[]*)?\[ARGS\]\s*/;

const withoutThinking = (text: string): string => text.replace(/\[THINK\][\s\S]*?\[\/THINK\]/g, '');

const readList = (
  rest: string,
  offered: OfferedTools,
): { calls: TextCall[]; after: string } | undefined => {
  const end = endOfJsonValue(rest, 0);
  if (end === undefined) return undefined;
  const parsed = parseJson(rest.slice(0, end));
  if (!parsed.ok) return undefined;
  const calls = callsFromList(parsed.value, { ...NAME_ARGUMENTS, extraKeys: ['id'] }, offered);
  return calls === undefined ? undefined : { calls, after: rest.slice(end) };
};

const readNamed = (
  rest: string,
  offered: OfferedTools,
): { calls: TextCall[]; after: string } | undefined => {
  const calls: TextCall[] = [];
  let remaining = rest;
  for (;;) {
    const head = NAMED.exec(remaining);
    if (head === null || !offered.has(head[1] as string)) return undefined;
    remaining = remaining.slice(head[0].length);
    const end = endOfJsonValue(remaining, 0);
    // Arguments cut off or broken: keep their raw text, so the model hears what was wrong.
    const args = end === undefined ? remaining.trim() : remaining.slice(0, end);
    calls.push({ name: head[1] as string, arguments: args });
    remaining = end === undefined ? '' : remaining.slice(end);
    const next = remaining.trimStart();
    if (!next.startsWith(MARK)) return { calls, after: remaining };
    remaining = next.slice(MARK.length).trimStart();
  }
};

export const mistral: CallFormat = {
  family: 'Mistral [TOOL_CALLS] (list and name[ARGS] forms)',
  detect: text => text.includes(MARK),
  parse(text, offered) {
    const clean = withoutThinking(text);
    const at = clean.indexOf(MARK);
    if (at === -1) return undefined;
    const rest = clean.slice(at + MARK.length).trimStart();
    const found = rest.startsWith('[') ? readList(rest, offered) : readNamed(rest, offered);
    if (found === undefined) return undefined;
    return { calls: found.calls, text: joinWords(clean.slice(0, at), found.after) };
  },
};
harden(mistral);
