/**
 * Tool calls written as text, at the edges of each family's format: the
 * variants the families emit (DeepSeek's name-after-separator form, fenced
 * arguments, missing end tokens; Qwen3-Coder's typed parameters), and text
 * that only looks like a call (an unknown tool, a fence in another
 * language, words after the block, broken JSON) staying text for the
 * sender. The native shapes are in reply-formats.test.ts.
 */
import { describe, expect, test } from 'vitest';
import type { ToolSchema } from '../providers/types.js';
import { offeredTools, recoverToolCalls } from '../src/reply/recover-tool-calls.js';

const tool = (name: string, properties: Record<string, { type: string }>): ToolSchema => ({
  type: 'function',
  function: { name, description: name, parameters: { type: 'object', properties } },
});
const offered = offeredTools([
  tool('get_weather', {
    city: { type: 'string' },
    days: { type: 'integer' },
    note: { type: 'string' },
  }),
  tool('get_time', { zone: { type: 'string' } }),
]);
const recover = (text: string) => recoverToolCalls(text, offered);
const calls = (text: string) =>
  recover(text).calls.map(call => [call.name, JSON.parse(call.arguments) as unknown]);
const staysText = (text: string) => {
  const found = recover(text);
  expect(found.calls).toEqual([]);
  expect(found.text).toBe(text);
};

describe('DeepSeek', () => {
  const begin = '<｜tool▁calls▁begin｜>';
  const end = '<｜tool▁calls▁end｜>';
  const call = '<｜tool▁call▁begin｜>';
  const sep = '<｜tool▁sep｜>';
  const callEnd = '<｜tool▁call▁end｜>';

  test('R1 / V3: "function", then the name on the first line and fenced JSON', () => {
    const text = `Checking.${begin}${call}function${sep}get_weather\n\`\`\`json\n{"city": "Oslo"}\n\`\`\`${callEnd}${end}<｜end▁of▁sentence｜>`;
    expect(calls(text)).toEqual([['get_weather', { city: 'Oslo' }]]);
    expect(recover(text).text).toBe('Checking.');
  });

  test('a name with no arguments, and calls without their end tokens, still read', () => {
    expect(calls(`${begin}${call}function${sep}get_time`)).toEqual([['get_time', {}]]);
    expect(
      calls(`${begin}${call}get_time${sep}{"zone":"UTC"}${call}get_weather${sep}{"city":"Rome"}`),
    ).toEqual([
      ['get_time', { zone: 'UTC' }],
      ['get_weather', { city: 'Rome' }],
    ]);
  });

  test('an unknown tool or an empty block stays text', () => {
    staysText(`${begin}${call}launch_rocket${sep}{}${callEnd}${end}`);
    staysText(`${begin}${end}`);
  });
});

describe('Qwen3-Coder function tags', () => {
  test('parameters are read by their declared type: strings kept as written, others as JSON', () => {
    const text =
      '<function=get_weather>\n<parameter=city>\n007\n</parameter>\n<parameter=days>\n3\n</parameter>\n<parameter=extra>not json</parameter>\n</function>';
    expect(calls(text)).toEqual([['get_weather', { city: '007', days: 3, extra: 'not json' }]]);
  });

  test('a JSON body or an empty one is taken; a body that is not a JSON object, or an unknown tool, stays text', () => {
    expect(calls('<function=get_time>{"zone":"CET"}</function>')).toEqual([
      ['get_time', { zone: 'CET' }],
    ]);
    expect(calls('Now: <function=get_time></function>')).toEqual([['get_time', {}]]);
    staysText('<function=get_time>[1, 2]</function>');
    staysText('<function=open_door>{}</function>');
  });
});

describe('a fenced JSON block', () => {
  test('one json block at the end holding a call is a call; the words before are kept', () => {
    const text = 'Let me look.\n```json\n{"name": "get_time", "arguments": {"zone": "UTC"}}\n```';
    expect(calls(text)).toEqual([['get_time', { zone: 'UTC' }]]);
    expect(recover(text).text).toBe('Let me look.');
  });

  test('another language, words after the block, two blocks, or broken JSON stay text', () => {
    staysText('```python\n{"name": "get_time", "arguments": {}}\n```');
    staysText(
      '```json\n{"name": "get_time", "arguments": {}}\n```\nThat is how you would call it.',
    );
    staysText(
      '```\n{"name": "get_time", "arguments": {}}\n```\n```\n{"name": "get_time", "arguments": {}}\n```',
    );
    staysText('```json\n{"name": "get_time", "arguments": \n```');
  });
});

describe('Hermes <tool_call>', () => {
  test('a list of calls in one block, function tags inside, and a block cut off by the stop token', () => {
    expect(
      calls(
        '<tool_call>[{"name": "get_time", "arguments": {}}, {"name": "get_weather", "parameters": {"city": "Bern"}}]</tool_call>',
      ),
    ).toEqual([
      ['get_time', {}],
      ['get_weather', { city: 'Bern' }],
    ]);
    expect(
      calls(
        '<tool_call>\n<function=get_time>\n<parameter=zone>\nUTC\n</parameter>\n</function>\n</tool_call>',
      ),
    ).toEqual([['get_time', { zone: 'UTC' }]]);
    expect(
      calls(
        'On it.\n<tool_call>{"name": "get_time", "arguments": {"zone": "UTC"}, "id": "c1", "type": "function"}',
      ),
    ).toEqual([['get_time', { zone: 'UTC' }]]);
  });

  test('arguments written as a JSON string are taken as the JSON the model wrote', () => {
    expect(
      recover('<tool_call>{"name": "get_time", "arguments": "{\\"zone\\": \\"CET\\"}"}</tool_call>')
        .calls,
    ).toEqual([{ name: 'get_time', arguments: '{"zone": "CET"}' }]);
  });

  test('a call whose JSON is broken after its arguments is salvaged; one that cannot be is text', () => {
    expect(
      recover('<tool_call>{"name": "get_weather", "arguments": {"city": "Oslo"}}}</tool_call>')
        .calls,
    ).toEqual([{ name: 'get_weather', arguments: '{"city": "Oslo"}}' }]);
    staysText('<tool_call>{"name": "open_door", "arguments": {</tool_call>');
    staysText('<tool_call>{"name": "get_time" </tool_call>');
    staysText('<tool_call>get_time please</tool_call>');
  });

  test('other keys, another type or non-object arguments stay text', () => {
    staysText('<tool_call>{"name": "get_time", "arguments": {}, "reason": "why not"}</tool_call>');
    staysText('<tool_call>{"name": "get_time", "arguments": {}, "type": "builtin"}</tool_call>');
    staysText('<tool_call>{"name": "get_time", "arguments": [1]}</tool_call>');
    staysText('<tool_call>[]</tool_call>');
    staysText('<tool_call>[{"name": "get_time"}, 3]</tool_call>');
  });
});

describe('Mistral [TOOL_CALLS]', () => {
  test('the list form, with words after it; thinking is left out', () => {
    const text =
      '[THINK]which tool?[/THINK]Sure.[TOOL_CALLS][{"name": "get_time", "arguments": {"zone": "UTC"}, "id": "abc123def"}] done';
    expect(calls(text)).toEqual([['get_time', { zone: 'UTC' }]]);
    expect(recover(text).text).toBe('Sure.\ndone');
  });

  test('the name[ARGS] form, several calls, a call id, and arguments cut off kept raw', () => {
    expect(
      recover(
        '[TOOL_CALLS]get_time[CALL_ID]a1[ARGS]{"zone": "UTC"}[TOOL_CALLS]get_weather[ARGS]{"city": "Paris", "days": [1, "}"]}',
      ).calls,
    ).toEqual([
      { name: 'get_time', arguments: '{"zone": "UTC"}' },
      { name: 'get_weather', arguments: '{"city": "Paris", "days": [1, "}"]}' },
    ]);
    expect(recover('[TOOL_CALLS]get_weather[ARGS]{"city": "Par').calls).toEqual([
      { name: 'get_weather', arguments: '{"city": "Par' },
    ]);
  });

  test('an unknown tool, a list that never closes or does not parse, stays text', () => {
    staysText('[TOOL_CALLS]launch[ARGS]{}');
    staysText('[TOOL_CALLS][{"name": "get_time", "arguments": {}}');
    staysText('[TOOL_CALLS][{"name": "get_time", "arguments": {},}]');
    staysText('[TOOL_CALLS] just words');
  });
});

describe('Llama JSON', () => {
  test('calls separated by ";" after the python tag, the end token dropped', () => {
    const text =
      'Let me check.<|python_tag|>{"name": "get_time", "parameters": {"zone": "UTC"}}; {"type": "function", "name": "get_weather", "parameters": {"city": "Lima"}}<|eom_id|>';
    expect(calls(text)).toEqual([
      ['get_time', { zone: 'UTC' }],
      ['get_weather', { city: 'Lima' }],
    ]);
    expect(recover(text).text).toBe('Let me check.');
  });

  test('a JSON list of calls is read; broken JSON, other words between calls, or an unknown tool stay text', () => {
    expect(calls('[{"name": "get_time", "parameters": {}}]')).toEqual([['get_time', {}]]);
    staysText('<|python_tag|>[{"name": "get_time", "parameters": {}');
    staysText(
      '<|python_tag|>{"name": "get_time", "parameters": {}} and {"name": "get_time", "parameters": {}}',
    );
    staysText('<|python_tag|>{"name": "get_time", "parameters": {"zone": "UTC"');
    staysText('{"name": "open_door", "parameters": {}}');
  });
});
