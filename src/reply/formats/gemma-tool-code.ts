/**
 * Gemma's `tool_code` fence: Gemma has no tool-call tokens, and Google's
 * guides prompt it to wrap a call in a Markdown fence labelled `tool_code`
 * holding a Python call with keyword arguments, and feed the result back in
 * a `tool_output` fence (ai.google.dev/gemma/docs/meme-generator, "Function
 * Calls Explained"; ai.google.dev/gemma/docs/capabilities/function-calling):
 *
 *     ```tool_code
 *     get_weather(city="Paris")
 *     ```
 *
 * Taken only when the fence is labelled `tool_code`, holds nothing but calls
 * (one per line, literal arguments: the pythonic reader) of offered tools,
 * and nothing but whitespace follows it; the words before it are kept. A
 * `print(…)` around the call, as Gemma sometimes writes, is taken off.
 */
import type { CallFormat } from './call-format.js';
import { joinWords } from './json-text.js';
import { readPythonCallList } from './python-call-list.js';

const FENCE = /```tool_code[ \t]*\n([\s\S]*?)\n?```/g;

/** The fence's body as a Python list of its calls, one per line (a `print(…)` wrapper dropped). */
const asCallList = (body: string): string => {
  const lines = body
    .split('\n')
    .map(line => line.trim())
    .filter(line => line !== '')
    .map(line => /^print\((.*)\)$/.exec(line)?.[1] ?? line);
  return `[${lines.join(', ')}]`;
};

export const gemmaToolCode: CallFormat = {
  family: 'Gemma ```tool_code``` fence',
  detect: text => text.includes('```tool_code'),
  parse(text, offered) {
    const fences = [...text.matchAll(FENCE)];
    if (fences.length !== 1) return undefined;
    const [fence] = fences as [RegExpMatchArray];
    const start = fence.index ?? 0;
    if (text.slice(start + fence[0].length).trim() !== '') return undefined;
    const calls = readPythonCallList(asCallList(fence[1] ?? ''));
    if (calls === undefined || calls.length === 0 || !calls.every(call => offered.has(call.name)))
      return undefined;
    return {
      calls: calls.map(call => ({ name: call.name, arguments: JSON.stringify(call.args) })),
      text: joinWords(text.slice(0, start)),
    };
  },
};
harden(gemmaToolCode);
