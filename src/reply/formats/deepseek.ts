/**
 * DeepSeek R1 / V3 / V3.1 calls between their special tokens (full-width
 * bars and U+2581):
 *   R1, V3:  <｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>NAME\n```json\n{…}\n```<｜tool▁call▁end｜>…<｜tool▁calls▁end｜>
 *   V3.1:    <｜tool▁calls▁begin｜><｜tool▁call▁begin｜>NAME<｜tool▁sep｜>{…}<｜tool▁call▁end｜>…<｜tool▁calls▁end｜>
 * Shapes from llama.cpp tests/test-chat.cpp and
 * models/templates/deepseek-ai-DeepSeek-V3.1.jinja, vLLM
 * deepseekv3_tool_parser.py and deepseekv31_tool_parser.py. ASCII bars and
 * underscores, which some runtimes print instead, are accepted too.
 */
import type { CallFormat, TextCall } from './call-format.js';
import { joinWords } from './json-text.js';

const token = (words: string) => `<[｜|]${words.split(' ').join('[▁_ ]')}[｜|]>`;
const CALLS_BEGIN = new RegExp(token('tool calls begin'));
const CALLS_END = new RegExp(token('tool calls end'));
const CALL = new RegExp(
  `${token('tool call begin')}([\\s\\S]*?)${token('tool sep')}([\\s\\S]*?)(?:${token('tool call end')}|(?=${token('tool call begin')})|$)`,
  'g',
);
const END_OF_SENTENCE = new RegExp(`${token('end of sentence')}\\s*$`);

const unfence = (text: string): string => {
  const fenced = /^```(?:json)?\s*\n?([\s\S]*?)\n?```$/.exec(text.trim());
  return (fenced?.[1] ?? text).trim();
};

export const deepseek: CallFormat = {
  family: 'DeepSeek R1 / V3 / V3.1',
  detect: text => CALLS_BEGIN.test(text),
  parse(text, offered) {
    const begin = CALLS_BEGIN.exec(text);
    if (begin === null) return undefined;
    const before = text.slice(0, begin.index);
    let region = text.slice(begin.index + begin[0].length);
    let after = '';
    const end = CALLS_END.exec(region);
    if (end !== null) {
      after = region.slice(end.index + end[0].length).replace(END_OF_SENTENCE, '');
      region = region.slice(0, end.index);
    }
    const calls: TextCall[] = [];
    for (const [, head = '', body = ''] of region.matchAll(CALL)) {
      let name = head.trim();
      let args = body;
      if (name === 'function') {
        // R1 / V3: the name is the first line after the separator, then fenced JSON.
        const newline = body.indexOf('\n');
        name = (newline === -1 ? body : body.slice(0, newline)).trim();
        args = newline === -1 ? '' : body.slice(newline + 1);
      }
      if (!offered.has(name)) return undefined;
      const json = unfence(args);
      calls.push({ name, arguments: json === '' ? '{}' : json });
    }
    return calls.length === 0 ? undefined : { calls, text: joinWords(before, after) };
  },
};
harden(deepseek);
