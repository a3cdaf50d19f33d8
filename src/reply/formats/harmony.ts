/**
 * gpt-oss's harmony format: messages `<|channel|>NAME<|message|>…` ended by
 * `<|end|>`, `<|call|>` or `<|return|>`, each after `<|start|>assistant`
 * except the first. A call is a message whose header names a recipient,
 * `to=functions.NAME` (after the channel, or before it), with the JSON
 * arguments as its body. `final` and plain `commentary` messages are the
 * model's words; `analysis` is reasoning and is dropped. Shape from llama.cpp
 * tests/test-chat.cpp and models/templates/openai-gpt-oss-120b.jinja, vLLM
 * openai_tool_parser.py. An answer in harmony with no call yields its words
 * alone, so the analysis channel never reaches the person.
 */
import type { CallFormat, TextCall } from './call-format.js';
import { joinWords } from './json-text.js';

const START = /^\s*(?:<\|start\|>\s*assistant\s*)?(?:to=\S+\s*)?<\|channel\|>/;
const MESSAGE =
  /(?:<\|start\|>\s*assistant)?([\s\S]*?)<\|message\|>([\s\S]*?)(?:<\|end\|>|<\|call\|>|<\|return\|>|(?=<\|start\|>)|$)/g;

export const harmony: CallFormat = {
  family: 'gpt-oss harmony (to=functions.NAME)',
  // The answer must open with a harmony header: prose that mentions the tokens stays prose.
  detect: text => START.test(text) && text.includes('<|message|>'),
  parse(text, offered) {
    const calls: TextCall[] = [];
    const words: string[] = [];
    let last = 0;
    for (const match of text.matchAll(MESSAGE)) {
      if (match[0] === '') break;
      words.push(text.slice(last, match.index));
      last = match.index + match[0].length;
      const header = match[1] ?? '';
      const body = (match[2] ?? '').trim();
      const channel = /<\|channel\|>\s*([A-Za-z]+)/.exec(header)?.[1];
      const recipient = /\bto=([^\s<]+)/.exec(header)?.[1];
      if (recipient !== undefined) {
        const name = recipient.startsWith('functions.')
          ? recipient.slice('functions.'.length)
          : recipient;
        if (!offered.has(name)) return undefined;
        calls.push({ name, arguments: body === '' ? '{}' : body });
      } else if (channel !== 'analysis') {
        words.push(body);
      }
    }
    words.push(text.slice(last));
    // Without a call it is still harmony: the words are the final answer, never the analysis.
    return { calls, text: joinWords(...words) };
  },
};
harden(harmony);
