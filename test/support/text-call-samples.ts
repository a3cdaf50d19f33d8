/**
 * One sample per model family of a tool call written as text, in the exact
 * shape that family's chat template and the public parsers show (the source
 * is named in each sample), calling the agent's own `reply` tool. Shared by
 * the parser tests (test/reply-formats.test.ts) and the whole-agent tests
 * (test/agent-text-tool-calls.test.ts).
 */

export interface TextCallSample {
  family: string;
  /** Where the shape comes from (llama.cpp / vLLM file names). */
  source: string;
  /** The model's answer calling reply(messageNumber, ["pong"]). */
  text: (messageNumber: number) => string;
  /** The model's words the format keeps beside the call. */
  words: string;
}

const args = (n: number) => `{"messageNumber": ${n}, "strings": ["pong"]}`;

export const TEXT_CALL_SAMPLES: readonly TextCallSample[] = [
  {
    family: 'Hermes / Qwen2.5 / Qwen3',
    source:
      'llama.cpp models/templates/Qwen-Qwen3-0.6B.jinja, NousResearch-Hermes-2-Pro-Llama-3-8B-tool_use.jinja; vLLM hermes_tool_parser.py',
    text: n =>
      `I will answer.\n<tool_call>\n{"name": "reply", "arguments": ${args(n)}}\n</tool_call>`,
    words: 'I will answer.',
  },
  {
    family: 'Qwen3-Coder',
    source: 'llama.cpp models/templates/Qwen3-Coder.jinja; vLLM qwen3coder_tool_parser.py',
    text: n =>
      `<tool_call>\n<function=reply>\n<parameter=messageNumber>\n${n}\n</parameter>\n<parameter=strings>\n["pong"]\n</parameter>\n</function>\n</tool_call>`,
    words: '',
  },
  {
    family: 'Mistral [TOOL_CALLS] list',
    source:
      'llama.cpp models/templates/mistralai-Mistral-Nemo-Instruct-2407.jinja; vLLM mistral_tool_parser.py',
    text: n => `[TOOL_CALLS][{"name": "reply", "arguments": ${args(n)}, "id": "a1b2c3d4e"}]`,
    words: '',
  },
  {
    family: 'Mistral [TOOL_CALLS]name[ARGS]',
    source: 'llama.cpp tests/test-chat.cpp (Ministral 3, Mistral Small 3.2 with [CALL_ID])',
    text: n => `[TOOL_CALLS]reply[ARGS]${args(n).replace(/ /g, '')}`,
    words: '',
  },
  {
    family: 'Llama 3.1 / 3.2 bare JSON',
    source:
      'llama.cpp models/templates/meta-llama-Llama-3.2-3B-Instruct.jinja; vLLM llama_tool_parser.py',
    text: n => `{"name": "reply", "parameters": ${args(n)}}`,
    words: '',
  },
  {
    family: 'Llama 3.1 JSON after <|python_tag|>',
    source:
      'llama.cpp models/templates/meta-llama-Llama-3.1-8B-Instruct.jinja, tests/test-chat.cpp',
    text: n => `<|python_tag|>{"name": "reply", "parameters": ${args(n)}}`,
    words: '',
  },
  {
    family: 'pythonic (Llama 3.2 / Gemma)',
    source:
      'llama.cpp models/templates/meta-llama-Llama-3.2-3B-Instruct.jinja; vLLM pythonic_tool_parser.py; Gemma 3 prompt format, ai.google.dev/gemma/docs/capabilities/function-calling',
    text: n => `[reply(messageNumber=${n}, strings=['pong'])]`,
    words: '',
  },
  {
    family: 'Gemma ```tool_code``` fence',
    source:
      'Google\'s Gemma guides: ai.google.dev/gemma/docs/meme-generator (a call "wrapped with ```tool_code```", its result in ```tool_output```), ai.google.dev/gemma/docs/capabilities/function-calling',
    text: n =>
      `I will answer the sender.\n\`\`\`tool_code\nreply(messageNumber=${n}, strings=["pong"])\n\`\`\``,
    words: 'I will answer the sender.',
  },
  {
    family: 'Functionary v3.2',
    source: 'llama.cpp models/templates/meetkai-functionary-medium-v3.2.jinja, tests/test-chat.cpp',
    text: n => `all\nI will answer.\n>>>reply\n${args(n)}\n`,
    words: 'I will answer.',
  },
  {
    family: 'DeepSeek R1 / V3',
    source:
      'llama.cpp tests/test-chat.cpp, models/templates/deepseek-ai-DeepSeek-R1-Distill-Llama-8B.jinja; vLLM deepseekv3_tool_parser.py',
    text: n =>
      `<think>The user wants pong.</think>I will answer.<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>reply\n\`\`\`json\n${args(n)}\n\`\`\`<｜tool▁call▁end｜><｜tool▁calls▁end｜>`,
    words: 'I will answer.',
  },
  {
    family: 'DeepSeek V3.1',
    source:
      'llama.cpp models/templates/deepseek-ai-DeepSeek-V3.1.jinja; vLLM deepseekv31_tool_parser.py',
    text: n =>
      `<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>reply<｜tool▁sep｜>${args(n)}<｜tool▁call▁end｜><｜tool▁calls▁end｜>`,
    words: '',
  },
  {
    family: 'gpt-oss harmony',
    source:
      'llama.cpp tests/test-chat.cpp, models/templates/openai-gpt-oss-120b.jinja; vLLM openai_tool_parser.py',
    text: n =>
      `<|channel|>analysis<|message|>The user wants pong.<|end|><|start|>assistant<|channel|>commentary to=functions.reply <|constrain|>json<|message|>${args(n)}<|call|>`,
    words: '',
  },
  {
    family: 'IBM Granite',
    source:
      'vLLM granite_tool_parser.py; llama.cpp models/templates/ibm-granite-granite-3.3-2B-Instruct.jinja',
    text: n => `<|tool_call|>[{"name": "reply", "arguments": ${args(n)}}]`,
    words: '',
  },
  {
    family: 'Command R7B',
    source:
      'llama.cpp models/templates/CohereForAI-c4ai-command-r7b-12-2024-tool_use.jinja, tests/test-chat.cpp',
    text: n =>
      `<|START_THINKING|>I will reply pong.<|END_THINKING|><|START_ACTION|>[\n    {"tool_call_id": "0", "tool_name": "reply", "parameters": ${args(n)}}\n]<|END_ACTION|>`,
    words: '',
  },
  {
    family: 'Phi-4-mini',
    source:
      'vLLM phi4mini_tool_parser.py; llama.cpp models/templates/llama-cpp-microsoft-Phi-4-mini-instruct.jinja',
    text: n => `functools[{"name": "reply", "arguments": ${args(n)}}]`,
    words: '',
  },
  {
    family: 'fenced JSON block',
    source: 'the Markdown habit of small models without a native format (no template)',
    text: n => `I will answer.\n\`\`\`json\n{"name": "reply", "arguments": ${args(n)}}\n\`\`\``,
    words: 'I will answer.',
  },
];

/** Answers that show JSON, code or call-like words: all text, none a call (the tools are the agent's own). */
export const PLAIN_ANSWERS: readonly { what: string; text: string }[] = [
  {
    what: 'prose that shows JSON',
    text: 'The reply tool takes JSON like {"messageNumber": 3, "strings": ["hi"]} in its arguments.',
  },
  {
    what: 'an example config',
    text: '```json\n{"name": "my-app", "version": "1.0.0", "scripts": {"test": "vitest"}}\n```',
  },
  {
    what: 'a fenced example of a call, explained after',
    text: 'A call looks like this:\n```json\n{"name": "reply", "arguments": {"messageNumber": 1, "strings": ["x"]}}\n```\nbut I will not make one now.',
  },
  { what: 'a Python list comprehension', text: '[reply(x) for x in messages]' },
  { what: 'a list of squares', text: '[x * x for x in range(10)]' },
  {
    what: 'the bare word <tool_call>',
    text: 'Models such as Qwen wrap calls in a <tool_call> tag; I answer in plain words.',
  },
  {
    what: 'a <tool_call> block naming a tool not offered',
    text: '<tool_call>\n{"name": "rm_rf", "arguments": {"path": "/"}}\n</tool_call>',
  },
  { what: 'a Python REPL transcript', text: '>>> reply(1)\nTraceback (most recent call last):' },
  {
    what: 'a JSON object with other keys',
    text: '{"name": "reply", "arguments": {"messageNumber": 1}, "comment": "example"}',
  },
  {
    what: 'a Markdown link list',
    text: '[reply](https://example.com) and [send](https://example.com)',
  },
  {
    what: 'prose about the harmony tokens',
    text: 'gpt-oss wraps its answer as <|channel|>final<|message|>…<|return|>; I answer plainly.',
  },
  { what: 'bare JSON data', text: '[{"name": "Ada", "age": 36}]' },
  {
    what: 'a Python fence that calls a tool by name',
    text: 'In Python you would write:\n```python\nreply(messageNumber=1, strings=["x"])\n```',
  },
  {
    what: 'a tool_code fence explained after',
    text: '```tool_code\nreply(messageNumber=1, strings=["x"])\n```\nThat is how Gemma would call it; I will not.',
  },
  {
    what: 'a tool_code fence holding a loop',
    text: '```tool_code\nfor m in messages: reply(m)\n```',
  },
];
