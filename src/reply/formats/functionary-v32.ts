/**
 * Functionary v3.2: the answer is a series of `>>>recipient\ncontent`
 * messages; recipient `all` is text for the person, any other is a tool
 * called with the JSON content. The prompt ends with `>>>`, so the first
 * recipient usually arrives without it. Shape from llama.cpp
 * models/templates/meetkai-functionary-medium-v3.2.jinja and
 * tests/test-chat.cpp ("all\nHello…>>>special_function\n{"arg1": 1}").
 */
import type { CallFormat, TextCall } from './call-format.js';
import { isRecord, joinWords, parseJson } from './json-text.js';

const SEGMENT = /^([A-Za-z0-9_.-]+)\n([\s\S]*)$/;

export const functionaryV32: CallFormat = {
  family: 'Functionary v3.2 (>>>name)',
  detect: text => text.includes('>>>') || /^\s*[A-Za-z0-9_.-]+\n\s*\{/.test(text),
  parse(text, offered) {
    const calls: TextCall[] = [];
    const words: string[] = [];
    const segments = text.trimStart().split('>>>');
    for (const [index, segment] of segments.entries()) {
      if (index === 0 && segment.trim() === '') continue;
      const found = SEGMENT.exec(segment);
      if (found === null || (found[1] !== 'all' && !offered.has(found[1] as string))) {
        // Words before the first `>>>` that name no recipient are the model's text.
        if (index === 0) {
          words.push(segment);
          continue;
        }
        return undefined;
      }
      const [, recipient, content] = found as unknown as [string, string, string];
      if (recipient === 'all') {
        words.push(content);
        continue;
      }
      const parsed = parseJson(content.trim());
      if (!parsed.ok || !isRecord(parsed.value)) return undefined;
      calls.push({ name: recipient, arguments: content.trim() });
    }
    return calls.length === 0 ? undefined : { calls, text: joinWords(...words) };
  },
};
harden(functionaryV32);
