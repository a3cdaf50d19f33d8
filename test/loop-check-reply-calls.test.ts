/**
 * The gate every tool call of a model reply passes before it enters the
 * history: invalid names are kept under a valid one and answered with an
 * error (pointing at the tool probably meant), calls beyond the per-reply
 * cap are answered with an error, ids are made valid and unique, and
 * malformed calls (no name, arguments as an object) still yield a valid
 * call. The agent-level proof is in agent-reply-calls.test.ts.
 */
import { describe, expect, test } from 'vitest';
import { callIdsIn, checkReplyCalls } from '../src/loop/check-reply-calls.js';
import type { ToolCall } from '../providers/types.js';

const ids = () => {
  let next = 0;
  return () => `gen_${(next += 1)}`;
};
const check = (calls: unknown[], extra: Partial<Parameters<typeof checkReplyCalls>[1]> = {}) =>
  checkReplyCalls(calls as ToolCall[], {
    idsInUse: new Set(),
    makeId: ids(),
    maxCalls: 16,
    toolNames: ['list', 'send'],
    ...extra,
  });

describe('checkReplyCalls', () => {
  test('a valid call passes as it is', () => {
    expect(check([{ id: 'c1', name: 'list', arguments: '{}' }])).toEqual([
      { call: { id: 'c1', name: 'list', arguments: '{}' } },
    ]);
  });

  test('an invalid name is kept under a valid one and refused, naming the tool probably meant', () => {
    const [checked] = check([{ id: 'c1', name: 'functions.list', arguments: '{}' }]);
    expect(checked!.call.name).toBe('functions_list');
    expect(JSON.parse(checked!.refusal!).error).toMatch(
      /"functions\.list" is not a valid tool name.*Did you mean "list"\?$/,
    );
  });

  test('a name with nothing usable becomes invalid_tool_name; a long one is cut in the refusal; no guess when none fits', () => {
    const [empty, long] = check([
      { id: 'c1', arguments: '{}' },
      { id: 'c2', name: `${'x'.repeat(90)}.zzz`, arguments: '{}' },
    ]);
    expect(empty!.call.name).toBe('invalid_tool_name');
    expect(long!.call.name).toHaveLength(64);
    const error = JSON.parse(long!.refusal!).error as string;
    expect(error).toContain(`"${'x'.repeat(80)}…"`);
    expect(error).not.toContain('Did you mean');
  });

  test('calls beyond the cap are refused with their place and the cap', () => {
    const calls = Array.from({ length: 4 }, (_, index) => ({
      id: `c${index}`,
      name: 'list',
      arguments: '{}',
    }));
    const checked = check(calls, { maxCalls: 2 });
    expect(checked.map(each => each.refusal === undefined)).toEqual([true, true, false, false]);
    expect(JSON.parse(checked[3]!.refusal!).error).toMatch(
      /at most 2 tool calls, and this was call 4 of 4/,
    );
  });

  test('ids that are missing, invalid, reused in the reply or already in the history get fresh ones', () => {
    const checked = check(
      [
        { id: 'call_1', name: 'list', arguments: '{}' },
        { id: 'call_1', name: 'list', arguments: '{}' },
        { id: 'old', name: 'list', arguments: '{}' },
        { name: 'list', arguments: '{}' },
        { id: 'has space', name: 'list', arguments: '{}' },
      ],
      { idsInUse: new Set(['old', 'gen_1']) },
    );
    const got = checked.map(each => each.call.id);
    expect(got[0]).toBe('call_1');
    expect(new Set(got).size).toBe(5);
    expect(got).not.toContain('old');
    expect(got).not.toContain('gen_1');
    expect(got.slice(1).every(id => /^gen_\d+$/.test(id))).toBe(true);
  });

  test('arguments given as an object, or none, become JSON text', () => {
    const [object, none] = check([
      { id: 'a', name: 'send', arguments: { to: 'HOST' } },
      { id: 'b', name: 'send' },
    ]);
    expect(object!.call.arguments).toBe('{"to":"HOST"}');
    expect(none!.call.arguments).toBe('{}');
  });
});

describe('callIdsIn', () => {
  test('collects the ids of assistant tool calls only', () => {
    expect(
      callIdsIn([
        { role: 'user', content: 'hi' },
        { role: 'assistant', content: '', toolCalls: [{ id: 'a', name: 'x', arguments: '{}' }] },
        { role: 'assistant', content: 'plain' },
        { role: 'tool', content: '{}', toolCallId: 'a' },
      ] as never),
    ).toEqual(new Set(['a']));
  });
});

describe('checkReplyCalls: the refusal of a bad name', () => {
  const errorOf = (name: string, toolNames = ['list', 'send']) =>
    JSON.parse(check([{ id: 'c1', name, arguments: '{}' }], { toolNames })[0]!.refusal!)
      .error as string;

  test('an op of an offered grouped tool is a good guess; an op of a group not offered is not', () => {
    expect(errorOf('functions.list', ['names', 'reply'])).toMatch(/Did you mean "list"\?$/);
    expect(errorOf('functions.list', ['mail', 'reply'])).not.toContain('Did you mean');
  });

  test('the guess is the last part that holds a letter, whatever separators follow it', () => {
    expect(errorOf('tools/list/')).toMatch(/Did you mean "list"\?$/);
    expect(errorOf('default_api::send::')).toMatch(/Did you mean "send"\?$/);
  });

  test('with no guess the refusal ends with the instruction, nothing after it', () => {
    expect(errorOf('ns.unknown')).toBe(
      'not run: "ns.unknown" is not a valid tool name (letters, digits, _ and - only, at most 64). Call a tool by its exact name.',
    );
  });

  test('a name of 80 characters is shown whole; one of 81 is cut at 80', () => {
    const at80 = `a.${'x'.repeat(78)}`;
    expect(errorOf(at80)).toContain(`"${at80}" is not`);
    const at81 = `a.${'x'.repeat(79)}`;
    expect(errorOf(at81)).toContain(`"${at81.slice(0, 80)}…" is not`);
  });

  test('a name of separators only is refused under a name of underscores', () => {
    const [checked] = check([{ id: 'c1', name: '::', arguments: '{}' }]);
    expect(checked!.call.name).toBe('__');
    expect(JSON.parse(checked!.refusal!).error).toMatch(/^not run: "::" is not a valid tool name/);
  });
});
