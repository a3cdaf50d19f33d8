/**
 * Pythonic calls: the whole answer is a Python list of calls with keyword
 * arguments, `[get_weather(city="Paris"), get_time(zone="CET")]` (Llama 3.2
 * and Llama 4, Gemma 3 as Google's function-calling guide prompts it; the Llama 3.2 template in llama.cpp
 * models/templates/meta-llama-Llama-3.2-3B-Instruct.jinja asks for
 * "[func_name1(params_name1=params_value1, …), func_name2(params)]" and no
 * other text; vLLM pythonic_tool_parser.py and llama4_pythonic_tool_parser.py,
 * which also allow `<|python_start|>…<|python_end|>` around it).
 */
import type { CallFormat } from './call-format.js';
import { readPythonCallList } from './python-call-list.js';

export const pythonic: CallFormat = {
  family: 'pythonic [name(arg=…)] (Llama 3.2 / Llama 4 / Gemma)',
  detect: text => /^\s*(?:<\|python_start\|>)?\s*\[\s*[A-Za-z_][\w.-]*\s*\(/.test(text),
  parse(text, offered) {
    const body = text.replace(/^\s*<\|python_start\|>/, '').replace(/<\|python_end\|>\s*$/, '');
    const calls = readPythonCallList(body);
    if (calls === undefined || !calls.every(call => offered.has(call.name))) return undefined;
    return {
      calls: calls.map(call => ({ name: call.name, arguments: JSON.stringify(call.args) })),
      text: '',
    };
  },
};
harden(pythonic);
