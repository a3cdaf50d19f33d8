/**
 * Hermes 2 Pro, Qwen2.5, Qwen3 (and Granite 4): one JSON object per call in
 * `<tool_call>…</tool_call>`, several blocks in one answer. The body may be
 * Qwen3-Coder's `<function=…>` form instead (see ./function-tags.ts). Shape
 * from llama.cpp models/templates (Qwen-Qwen3-0.6B.jinja,
 * NousResearch-Hermes-2-Pro-Llama-3-8B-tool_use.jinja) and vLLM's
 * hermes_tool_parser.py.
 */
import type { CallFormat, OfferedTools, TextCall } from './call-format.js';
import { parseFunctionTags } from './function-tags.js';
import {
  callsFromList,
  callFromObject,
  joinWords,
  NAME_ARGUMENTS,
  parseJson,
} from './json-text.js';

// A final block may be cut off by the stop token before its closing tag.
const BLOCK = /<tool_call>([\s\S]*?)(?:<\/tool_call>|$)/g;

/**
 * Broken JSON in a block that clearly names an offered tool still makes a
 * call, with the arguments' raw text, so the model is told precisely what
 * was wrong instead of the markup reaching the person.
 */
const salvage = (body: string, offered: OfferedTools): TextCall | undefined => {
  if (!body.startsWith('{')) return undefined;
  const name = /^\{\s*"name"\s*:\s*"([^"]+)"/.exec(body)?.[1];
  if (name === undefined || !offered.has(name)) return undefined;
  const argsAt = /"(?:arguments|parameters)"\s*:\s*/.exec(body);
  if (argsAt === null) return undefined;
  let rest = body.slice(argsAt.index + argsAt[0].length).trim();
  if (rest.endsWith('}')) rest = rest.slice(0, -1).trimEnd();
  return { name, arguments: rest };
};

const parseBody = (raw: string, offered: OfferedTools): TextCall[] | undefined => {
  const body = raw.trim();
  if (body.startsWith('<function=')) {
    const found = parseFunctionTags(body, offered);
    return found !== undefined && found.text === '' ? found.calls : undefined;
  }
  const parsed = parseJson(body);
  if (!parsed.ok) {
    const salvaged = salvage(body, offered);
    return salvaged === undefined ? undefined : [salvaged];
  }
  const shape = { ...NAME_ARGUMENTS, extraKeys: ['id', 'type'] };
  if (Array.isArray(parsed.value)) return callsFromList(parsed.value, shape, offered);
  const call = callFromObject(parsed.value, shape, offered);
  return call === undefined ? undefined : [call];
};

export const hermes: CallFormat = {
  family: 'Hermes / Qwen2.5 / Qwen3 <tool_call>',
  detect: text => text.includes('<tool_call>'),
  parse(text, offered) {
    const calls: TextCall[] = [];
    const words: string[] = [];
    let last = 0;
    for (const match of text.matchAll(BLOCK)) {
      const found = parseBody(match[1] ?? '', offered);
      if (found === undefined) return undefined;
      calls.push(...found);
      words.push(text.slice(last, match.index));
      last = match.index + match[0].length;
    }
    words.push(text.slice(last));
    return calls.length === 0 ? undefined : { calls, text: joinWords(...words) };
  },
};
harden(hermes);
