/**
 * The text tool-call formats, parser by parser: each family's native shape
 * (samples in test/support/text-call-samples.ts, with their sources) becomes
 * calls with the model's words kept; several calls where the family allows;
 * and answers that only look like calls stay text.
 */
import { describe, expect, test } from 'vitest';
import type { ToolSchema } from '../providers/types.js';
import { CALL_FORMATS } from '../src/reply/formats/index.js';
import { offeredTools, recoverToolCalls } from '../src/reply/recover-tool-calls.js';
import { stripThinking } from '../src/reply/strip-thinking.js';
import { BUILTIN_SCHEMAS } from '../src/agent-tools/builtin-schemas.js';
import { PLAIN_ANSWERS, TEXT_CALL_SAMPLES } from './support/text-call-samples.js';

const tool = (name: string, properties: Record<string, { type: string }>): ToolSchema => ({
  type: 'function',
  function: { name, description: name, parameters: { type: 'object', properties } },
});
const offered = offeredTools([
  ...BUILTIN_SCHEMAS,
  tool('get_weather', { city: { type: 'string' }, days: { type: 'integer' } }),
  tool('get_time', { zone: { type: 'string' } }),
]);
const recover = (text: string) => recoverToolCalls(text, offered);
const parsedCalls = (text: string) =>
  recover(text).calls.map(call => [call.name, JSON.parse(call.arguments) as unknown]);

describe('each family, in its native shape', () => {
  test.each(TEXT_CALL_SAMPLES.map(sample => [sample.family, sample] as const))(
    '%s',
    (_family, sample) => {
      // As the agent reads a reply: <think> out first, then the calls.
      const found = recover(stripThinking(sample.text(7)));
      expect(found.calls.map(call => [call.name, JSON.parse(call.arguments)])).toEqual([
        ['reply', { messageNumber: 7, strings: ['pong'] }],
      ]);
      expect(found.text).toBe(sample.words);
      expect(found.family).toBeDefined();
    },
  );

  test('every format of the registry is claimed by a sample, so none is untested', () => {
    // Qwen3-Coder's sample sits inside <tool_call>; a bare <function=…> block stands for its module.
    const texts = [
      ...TEXT_CALL_SAMPLES.map(sample => sample.text(1)),
      '<function=get_time>{}</function>',
    ];
    const claimed = new Set(texts.map(text => recover(text).family));
    const unclaimed = CALL_FORMATS.map(format => format.family).filter(
      family => !claimed.has(family),
    );
    expect(unclaimed).toEqual([]);
  });
});

describe('several calls, and the details of each shape', () => {
  test('Hermes: two blocks, words between kept', () => {
    const found = recover(
      'Checking.\n<tool_call>\n{"name": "get_weather", "arguments": {"city": "Paris"}}\n</tool_call>\nand\n<tool_call>\n{"name": "get_time", "arguments": {"zone": "CET"}}\n</tool_call>',
    );
    expect(found.calls.map(call => call.name)).toEqual(['get_weather', 'get_time']);
    expect(found.text).toBe('Checking.\nand');
  });

  test('Hermes: a last block cut off before </tool_call> still counts', () => {
    expect(parsedCalls('<tool_call>\n{"name": "get_time", "arguments": {"zone": "UTC"}}')).toEqual([
      ['get_time', { zone: 'UTC' }],
    ]);
  });

  test('Hermes: broken JSON naming an offered tool keeps its raw arguments, for a precise error', () => {
    const { calls } = recover(
      '<tool_call>{"name": "reply", "arguments": {"messageNumber": 3, "strings": ["pong"}}</tool_call>',
    );
    expect(calls.map(call => call.name)).toEqual(['reply']);
    expect(() => JSON.parse(calls[0]!.arguments)).toThrow();
  });

  test('Qwen3-Coder: a string parameter keeps its text as written, others read as JSON', () => {
    const text =
      '<tool_call>\n<function=get_weather>\n<parameter=city>\n1984\n</parameter>\n<parameter=days>\n3\n</parameter>\n</function>\n</tool_call>\n<tool_call>\n<function=get_time>\n<parameter=zone>\nCET\n</parameter>\n</function>\n</tool_call>';
    expect(parsedCalls(text)).toEqual([
      ['get_weather', { city: '1984', days: 3 }],
      ['get_time', { zone: 'CET' }],
    ]);
  });

  test('Qwen3-Coder: a <function=…> block outside <tool_call>, words kept', () => {
    const found = recover(
      'ok <function=get_weather><parameter=city>Oslo</parameter><parameter=days>2</parameter></function>',
    );
    expect(found.calls).toEqual([
      { name: 'get_weather', arguments: JSON.stringify({ city: 'Oslo', days: 2 }) },
    ]);
    expect(found.text).toBe('ok');
  });

  test('Functionary v3.1 (llama.cpp models/templates/meetkai-functionary-medium-v3.1.jinja): <function=name>{json}</function>', () => {
    const found = recover('Let me look.<function=get_weather>{"city": "Oslo"}</function>');
    expect(found.calls.map(call => [call.name, JSON.parse(call.arguments)])).toEqual([
      ['get_weather', { city: 'Oslo' }],
    ]);
    expect(found.text).toBe('Let me look.');
  });

  test('Mistral list: two calls with ids', () => {
    expect(
      parsedCalls(
        '[TOOL_CALLS] [{"name": "get_weather", "arguments": {"city": "Rome"}, "id": "abcdef123"}, {"name": "get_time", "arguments": {"zone": "CET"}, "id": "abcdef124"}]',
      ),
    ).toEqual([
      ['get_weather', { city: 'Rome' }],
      ['get_time', { zone: 'CET' }],
    ]);
  });

  test('Mistral name[ARGS]: two calls, [CALL_ID] form, [THINK] dropped', () => {
    const found = recover(
      '[THINK]I need both.[/THINK][TOOL_CALLS]get_weather[CALL_ID]abc123def[ARGS]{"city":"Rome"}[TOOL_CALLS]get_time[ARGS]{"zone":"CET"}',
    );
    expect(found.calls.map(call => [call.name, JSON.parse(call.arguments)])).toEqual([
      ['get_weather', { city: 'Rome' }],
      ['get_time', { zone: 'CET' }],
    ]);
    expect(found.text).toBe('');
  });

  test('Mistral name[ARGS] cut off: the raw arguments go on, to be reported', () => {
    const { calls } = recover('[TOOL_CALLS]get_weather[ARGS]{"city": "Ro');
    expect(calls).toEqual([{ name: 'get_weather', arguments: '{"city": "Ro' }]);
  });

  test('Llama JSON: two calls separated by ";", the "type" tag allowed', () => {
    expect(
      parsedCalls(
        '{"type": "function", "name": "get_weather", "parameters": {"city": "Lima"}}; {"name": "get_time", "parameters": {"zone": "PET"}}',
      ),
    ).toEqual([
      ['get_weather', { city: 'Lima' }],
      ['get_time', { zone: 'PET' }],
    ]);
  });

  test('Llama <|python_tag|>: words before it kept, <|eom_id|> dropped', () => {
    const found = recover(
      'Looking it up.<|python_tag|>{"name": "get_time", "parameters": {"zone": "UTC"}}<|eom_id|>',
    );
    expect(found.calls.map(call => call.name)).toEqual(['get_time']);
    expect(found.text).toBe('Looking it up.');
  });

  test('pythonic: two calls, literals of every kind, Llama 4 markers', () => {
    const text =
      '<|python_start|>[get_weather(city="São Paulo", days=2), reply(messageNumber=4, strings=["a \\"quoted\\" word", \'it\\\'s\'], extra={"on": True, "off": False, "none": None, "list": (1, 2.5, -3e2)})]<|python_end|>';
    expect(parsedCalls(text)).toEqual([
      ['get_weather', { city: 'São Paulo', days: 2 }],
      [
        'reply',
        {
          messageNumber: 4,
          strings: ['a "quoted" word', "it's"],
          extra: { on: true, off: false, none: null, list: [1, 2.5, -300] },
        },
      ],
    ]);
  });

  test('Gemma tool_code: two calls on two lines, a print() wrapper dropped; a call of a tool not offered keeps it all text', () => {
    expect(
      parsedCalls(
        '```tool_code\nget_weather(city="Nice", days=2)\nprint(get_time(zone="CET"))\n```',
      ),
    ).toEqual([
      ['get_weather', { city: 'Nice', days: 2 }],
      ['get_time', { zone: 'CET' }],
    ]);
    const unoffered = '```tool_code\nrm_rf(path="/")\n```';
    expect(recover(unoffered).calls).toEqual([]);
    expect(recover(unoffered).text).toBe(unoffered);
  });

  test('Functionary v3.2: text, then two calls after >>>', () => {
    const found = recover(
      '>>>all\nOne moment.\n>>>get_weather\n{"city": "Nice"}\n>>>get_time\n{"zone": "CET"}',
    );
    expect(found.calls.map(call => [call.name, JSON.parse(call.arguments)])).toEqual([
      ['get_weather', { city: 'Nice' }],
      ['get_time', { zone: 'CET' }],
    ]);
    expect(found.text).toBe('One moment.');
  });

  test('Functionary v3.2: the first recipient without >>> (the prompt held it)', () => {
    expect(parsedCalls('get_time\n{"zone": "UTC"}')).toEqual([['get_time', { zone: 'UTC' }]]);
  });

  test('DeepSeek R1: two calls, words before and after kept', () => {
    const call = (name: string, json: string) =>
      `<｜tool▁call▁begin｜>function<｜tool▁sep｜>${name}\n\`\`\`json\n${json}\n\`\`\`<｜tool▁call▁end｜>`;
    const found = recover(
      `Sure.<｜tool▁calls▁begin｜>${call('get_weather', '{"city": "Kyiv"}')}\n${call('get_time', '{"zone": "EET"}')}<｜tool▁calls▁end｜>Done.<｜end▁of▁sentence｜>`,
    );
    expect(found.calls.map(c => [c.name, JSON.parse(c.arguments)])).toEqual([
      ['get_weather', { city: 'Kyiv' }],
      ['get_time', { zone: 'EET' }],
    ]);
    expect(found.text).toBe('Sure.\nDone.');
  });

  test('gpt-oss harmony: recipient before the channel, a preamble and a final answer', () => {
    const text =
      '<|channel|>analysis<|message|>secret reasoning<|end|><|start|>assistant<|channel|>commentary<|message|>Checking the weather.<|end|><|start|>assistant to=functions.get_weather<|channel|>commentary json<|message|>{"city": "Bern"}<|call|>';
    const found = recover(text);
    expect(found.calls.map(c => [c.name, JSON.parse(c.arguments)])).toEqual([
      ['get_weather', { city: 'Bern' }],
    ]);
    expect(found.text).toBe('Checking the weather.');
  });

  test('gpt-oss harmony without a call: the final message is the answer, the analysis (reasoning) is dropped', () => {
    const found = recover(
      '<|channel|>analysis<|message|>The user greets me; private thoughts.<|end|><|start|>assistant<|channel|>final<|message|>Hello there!<|return|>',
    );
    expect(found).toMatchObject({ calls: [], text: 'Hello there!' });
  });

  test('gpt-oss harmony: a recipient that is not an offered function keeps it all text', () => {
    const text =
      '<|channel|>commentary to=browser.search <|constrain|>json<|message|>{"query": "x"}<|call|>';
    expect(recover(text)).toEqual({ calls: [], text });
  });

  test('Granite and Phi-4-mini: two calls in the list', () => {
    const list =
      '[{"name": "get_weather", "arguments": {"city": "Turin"}}, {"name": "get_time", "arguments": {"zone": "CET"}}]';
    const expected = [
      ['get_weather', { city: 'Turin' }],
      ['get_time', { zone: 'CET' }],
    ];
    expect(parsedCalls(`<|tool_call|>${list}`)).toEqual(expected);
    expect(parsedCalls(`functools${list}`)).toEqual(expected);
  });

  test('Command R7B: two actions, the plan dropped, the response words kept', () => {
    const found = recover(
      '<|START_THINKING|>Plan: both.<|END_THINKING|><|START_RESPONSE|>Right away.<|END_RESPONSE|><|START_ACTION|>[\n {"tool_call_id": "0", "tool_name": "get_weather", "parameters": {"city": "Ghent"}},\n {"tool_call_id": "1", "tool_name": "get_time", "parameters": {"zone": "CET"}}\n]<|END_ACTION|>',
    );
    expect(found.calls.map(c => c.name)).toEqual(['get_weather', 'get_time']);
    expect(found.text).toBe('Right away.');
  });

  test('any call naming a tool not offered makes the whole answer text', () => {
    for (const text of [
      '<tool_call>{"name": "get_weather", "arguments": {}}</tool_call><tool_call>{"name": "delete_all", "arguments": {}}</tool_call>',
      '[TOOL_CALLS][{"name": "delete_all", "arguments": {}}]',
      '{"name": "delete_all", "parameters": {}}',
      '[delete_all(path="/")]',
      'functools[{"name": "delete_all", "arguments": {}}]',
    ]) {
      expect(recover(text)).toEqual({ calls: [], text });
    }
  });

  test('with no tools offered nothing is a call', () => {
    const text = TEXT_CALL_SAMPLES[0]!.text(1);
    expect(recoverToolCalls(text, offeredTools([]))).toEqual({ calls: [], text });
  });
});

describe('answers that only look like calls stay text', () => {
  test.each(PLAIN_ANSWERS.map(answer => [answer.what, answer.text] as const))(
    '%s',
    (_what, text) => {
      expect(recover(text)).toEqual({ calls: [], text });
    },
  );
});
