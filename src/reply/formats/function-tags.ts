/**
 * `<function=NAME>…</function>` blocks: Qwen3-Coder's parameters, one
 * `<parameter=KEY>value</parameter>` each (llama.cpp
 * models/templates/Qwen3-Coder.jinja, vLLM qwen3coder_tool_parser.py), and
 * Functionary v3.1's JSON body `<function=NAME>{…}</function>` (llama.cpp
 * models/templates/meetkai-functionary-medium-v3.1.jinja).
 */
import type { CallFormat, FoundCalls, OfferedTools, TextCall } from './call-format.js';
import { isRecord, joinWords, parseJson } from './json-text.js';

const BLOCK = /<function=([^>\s]+)\s*>([\s\S]*?)(?:<\/function>|$)/g;
const PARAMETER = /<parameter=([^>\s]+)\s*>([\s\S]*?)(?:<\/parameter>|(?=<parameter=)|$)/g;

/**
 * A parameter's text, typed by the tool's schema: a string parameter keeps
 * its text as written ("5" stays "5"); others are read as JSON when they
 * parse (`["pong"]`, `5`, `true`), else kept as the text.
 */
const readValue = (raw: string, type: unknown): unknown => {
  const text = raw.replace(/^\n/, '').replace(/\n$/, '');
  if (type === 'string') return text;
  const parsed = parseJson(text.trim());
  return parsed.ok ? parsed.value : text;
};

const propertyType = (offered: OfferedTools, name: string, key: string): unknown =>
  offered.get(name)?.function.parameters.properties?.[key]?.type;

const readBody = (name: string, body: string, offered: OfferedTools): string | undefined => {
  if (body.includes('<parameter=')) {
    const args: Record<string, unknown> = {};
    for (const [, key, value] of body.matchAll(PARAMETER)) {
      args[key as string] = readValue(value ?? '', propertyType(offered, name, key as string));
    }
    return JSON.stringify(args);
  }
  const trimmed = body.trim();
  if (trimmed === '') return '{}';
  const parsed = parseJson(trimmed);
  return parsed.ok && isRecord(parsed.value) ? trimmed : undefined;
};

export const parseFunctionTags = (text: string, offered: OfferedTools): FoundCalls | undefined => {
  const calls: TextCall[] = [];
  const words: string[] = [];
  let last = 0;
  for (const match of text.matchAll(BLOCK)) {
    const name = match[1] as string;
    if (!offered.has(name)) return undefined;
    const args = readBody(name, match[2] ?? '', offered);
    if (args === undefined) return undefined;
    calls.push({ name, arguments: args });
    words.push(text.slice(last, match.index));
    last = match.index + match[0].length;
  }
  words.push(text.slice(last));
  return calls.length === 0 ? undefined : { calls, text: joinWords(...words) };
};
harden(parseFunctionTags);

export const functionTags: CallFormat = {
  family: 'Qwen3-Coder <function=…><parameter=…>, Functionary v3.1',
  detect: text => text.includes('<function='),
  parse: parseFunctionTags,
};
harden(functionTags);
