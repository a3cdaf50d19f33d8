/**
 * A tool call decoded once (src/agent-tools/decode-call.ts, decode-arguments.ts), piece by piece:
 * which argument texts are read and which refused with what words, the names the policy judges
 * a call by (its op and group however it was called), and the repeat guard's key (equal for the
 * same call written differently, different for different calls). The agent-level proof is
 * agent-call-decision.test.ts; `npm run mutation -- decode-call` judges these.
 */
import { describe, expect, test } from 'vitest';
import { decodeArguments } from '../src/encoding/decode-arguments.js';
import { decodeCall } from '../src/agent-tools/decode-call.js';

const call = (name: string, args: string) => ({ id: 'c1', name, arguments: args });
const keep = (text: string) => text;
const decode = (name: string, args: string) => decodeCall(call(name, args), keep);

describe('decodeArguments', () => {
  test('an object is read whole; nothing at all is no arguments', () => {
    expect(decodeArguments(' {"a": {"b": [1, null]}} ')).toEqual({
      ok: true,
      args: { a: { b: [1, null] } },
    });
    expect(decodeArguments('\uFEFF  \n')).toEqual({ ok: true, args: {} });
  });

  test('JSON that is not an object is refused, naming what it is', () => {
    expect(decodeArguments('null')).toEqual({
      ok: false,
      error: 'The arguments must be a JSON object, got null: null',
    });
    expect(decodeArguments('[1]')).toEqual({
      ok: false,
      error: 'The arguments must be a JSON object, got an array: [1]',
    });
    expect(decodeArguments('7')).toEqual({
      ok: false,
      error: 'The arguments must be a JSON object, got number: 7',
    });
    expect(decodeArguments('"[1]"')).toEqual({
      ok: false,
      error: 'The arguments must be a JSON object, got an array: "[1]"',
    });
  });

  test('a JSON string holding text that is not JSON is refused as such', () => {
    expect(decodeArguments('"make a box"')).toEqual({
      ok: false,
      error:
        'The arguments are a JSON string, not an object: "make a box". Send the arguments as one JSON object.',
    });
  });

  test('what is shown of refused arguments stops at 120 characters', () => {
    const shownOf = (text: string) =>
      (decodeArguments(text) as { error: string }).error.split('got an array: ')[1];
    const at120 = `[${'1,'.repeat(58)}11]`;
    const at121 = `[${'1,'.repeat(58)}111]`;
    expect([at120.length, at121.length]).toEqual([120, 121]);
    expect(shownOf(at120)).toBe(at120);
    expect(shownOf(at121)).toBe(`${at121.slice(0, 120)}…`);
    const broken = `{"a": "${'x'.repeat(200)}`;
    expect((decodeArguments(broken) as { error: string }).error).toMatch(
      new RegExp(`: \\{"a": "${'x'.repeat(113)}…\\. Send the arguments as one JSON object\\.$`),
    );
  });
});

describe('decodeCall', () => {
  test('a grouped call is judged by its op and group, whether called as the group or by the op', () => {
    const asGroup = decodeCall(call('names', '{"op":"makeDirectory","petNamePath":["box"]}'), keep);
    const asOp = decodeCall(call('makeDirectory', '{"petNamePath":["box"]}'), keep);
    expect(asGroup.names).toEqual(['makeDirectory', 'names']);
    expect(asOp.names).toEqual(['makeDirectory', 'names']);
    expect(decodeCall(call('reply', '{}'), keep).names).toEqual(['reply']);
  });

  test('a call that cannot be read keeps the names it was called by, and is refused', () => {
    const byOp = decodeCall(call('makeDirectory', '{"petNamePath": ['), keep);
    expect(byOp).toMatchObject({ ok: false, names: ['makeDirectory', 'names'] });
    expect(decodeCall(call('reply', 'not json'), keep)).toMatchObject({
      ok: false,
      names: ['reply'],
      error: expect.stringMatching(/^The arguments are not valid JSON/),
    });
    expect(decodeCall(call('names', '{"op":"shred"}'), keep)).toMatchObject({
      ok: false,
      names: ['names'],
      error:
        'names has no op "shred": use one of list, has, lookup, identify, inspectCapability, remove, move, copy, makeDirectory, store, help',
    });
  });

  test("the repeat guard's key: equal for the same call however spaced or ordered, different otherwise (a FaeTool's call)", () => {
    const key = (name: string, args: string) => decodeCall(call(name, args), keep).key;
    expect(key('weather', '{"to":"a","n":{"y":1,"x":null}}')).toBe(
      key('weather', ' { "n": { "x": null, "y": 1 }, "to": "a" } '),
    );
    expect(key('weather', '{"list":[1,2]}')).not.toBe(key('weather', '{"list":[2,1]}'));
    expect(key('weather', '{"list":[{"b":1,"a":2}]}')).toBe(
      key('weather', '{"list":[{"a":2,"b":1}]}'),
    );
    expect(key('weather', '{"to":"a"}')).not.toBe(key('forecast', '{"to":"a"}'));
    expect(key('weather', '{"v":null}')).not.toBe(key('weather', '{"v":{}}'));
    // Arguments that cannot be read: the same text, however padded, is the same call.
    expect(key('weather', '{"to":')).toBe(key('weather', '  {"to":  '));
    expect(key('weather', '{"to":')).not.toBe(key('weather', '{"to":"'));
  });

  test("a built-in's arguments are checked against its definition: refused with the op's names, or read into its values", () => {
    expect(decode('names', '{"op":"move","path":["a"]}')).toMatchObject({
      ok: false,
      names: ['move', 'names'],
      error: 'move: to is required',
    });
    expect(decode('move', '{"path":["a"],"to":["b"]}')).toMatchObject({
      ok: true,
      names: ['move', 'names'],
      values: { path: ['a'], to: ['b'] },
    });
  });

  test("a FaeTool's arguments are checked against the parameters it declared, when it declared them", () => {
    const parameters = {
      type: 'object',
      properties: { city: { type: 'string' } },
      required: ['city'],
    };
    const declared = (name: string) => (name === 'weather' ? parameters : undefined);
    const check = (name: string, args: string) =>
      decodeCall({ id: 'c1', name, arguments: args }, keep, declared);
    expect(check('weather', '{}')).toMatchObject({
      ok: false,
      names: ['weather'],
      error: expect.stringMatching(/^weather: .*city/),
    });
    expect(check('weather', '{"city":"Oslo"}')).toMatchObject({
      ok: true,
      values: { city: 'Oslo' },
    });
    expect(check('forecast', '{}')).toMatchObject({ ok: true, values: {} });
  });

  test('secret values are redacted before anything sees the arguments', () => {
    const decoded = decodeCall(call('weather', '{"strings":["token sk-123"]}'), text =>
      text.replaceAll('sk-123', '[redacted]'),
    );
    expect(decoded).toMatchObject({ ok: true, args: { strings: ['token [redacted]'] } });
  });
});
