/**
 * Llama 3.1 / 3.2 / 3.3 JSON calls: the whole answer is
 * `{"name": …, "parameters": {…}}` (several separated by `;`, as vLLM's
 * llama_tool_parser.py accepts), or the same after `<|python_tag|>`.
 * Shape from llama.cpp models/templates/meta-llama-Llama-3.1-8B-Instruct.jinja
 * and meta-llama-Llama-3.2-3B-Instruct.jinja ("Respond in the format
 * {"name": function name, "parameters": dictionary of argument name and its
 * value}"). JSON inside prose is never taken: only a whole answer.
 */
import type { CallFormat, OfferedTools, TextCall } from './call-format.js';
import {
  callFromObject,
  callsFromList,
  endOfJsonValue,
  joinWords,
  parseJson,
  type CallObjectShape,
} from './json-text.js';

const TAG = '<|python_tag|>';
const SHAPE: CallObjectShape = {
  nameKey: 'name',
  argumentKeys: ['parameters', 'arguments'],
  extraKeys: ['type'],
};

/** One or more call objects separated by `;`, or a JSON list of them: all calls, or undefined. */
const readCalls = (body: string, offered: OfferedTools): TextCall[] | undefined => {
  if (body.startsWith('[')) {
    const parsed = parseJson(body);
    return parsed.ok ? callsFromList(parsed.value, SHAPE, offered) : undefined;
  }
  const calls: TextCall[] = [];
  let rest = body;
  while (rest !== '') {
    const end = endOfJsonValue(rest, 0);
    if (end === undefined) return undefined;
    const parsed = parseJson(rest.slice(0, end));
    const call = parsed.ok ? callFromObject(parsed.value, SHAPE, offered) : undefined;
    if (call === undefined) return undefined;
    calls.push(call);
    rest = rest.slice(end).trimStart();
    if (rest.startsWith(';')) rest = rest.slice(1).trimStart();
    else if (rest !== '') return undefined;
  }
  return calls.length === 0 ? undefined : calls;
};

export const llamaJson: CallFormat = {
  family: 'Llama 3.1 / 3.2 JSON (bare or after <|python_tag|>)',
  detect: text => text.includes(TAG) || /^\s*[[{]/.test(text),
  parse(text, offered) {
    const at = text.indexOf(TAG);
    const before = at === -1 ? '' : text.slice(0, at);
    const body = (at === -1 ? text : text.slice(at + TAG.length))
      .replace(/<\|(?:eom_id|eot_id)\|>\s*$/, '')
      .trim();
    const calls = readCalls(body, offered);
    return calls === undefined ? undefined : { calls, text: joinWords(before) };
  },
};
harden(llamaJson);
