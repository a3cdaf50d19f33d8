/**
 * A FaeTool call's arguments against the schema the tool declared (behaviour
 * 6.1): required parameters given, each given one of a declared type, with
 * numbers accepted as numeric text (as the tools read them) and nothing
 * converted. The answer names the parameter and what it should be.
 */
import { describe, expect, test } from 'vitest';
import { checkFaeArguments } from '../src/agent-tools/check-fae-arguments.js';

const schema = {
  type: 'object',
  properties: {
    path: { type: 'string' },
    count: { type: 'integer' },
    ratio: { type: 'number' },
    flag: { type: 'boolean' },
    list: { type: 'array' },
    options: { type: 'object' },
    either: { type: ['string', 'null'] },
    anything: { description: 'no type declared' },
  },
  required: ['path'],
};

describe('checkFaeArguments (behaviour 6.1)', () => {
  test('arguments that fit pass, numbers written as text among them', () => {
    expect(checkFaeArguments(schema, { path: 'a' })).toBeUndefined();
    expect(
      checkFaeArguments(schema, {
        path: 'a',
        count: '3',
        ratio: ' 0.5 ',
        flag: false,
        list: [],
        options: {},
        either: null,
        anything: [1, { x: 2 }],
      }),
    ).toBeUndefined();
    expect(checkFaeArguments(schema, { path: 'a', count: 3, ratio: -2 })).toBeUndefined();
    // One of the declared types is enough.
    expect(checkFaeArguments(schema, { path: 'a', either: 'text' })).toBeUndefined();
  });

  test('a required parameter left out or null is named', () => {
    expect(checkFaeArguments(schema, {})).toBe('path is required');
    expect(checkFaeArguments(schema, { path: null })).toBe('path is required');
    expect(checkFaeArguments(schema, { count: 1 })).toBe('path is required');
  });

  test('an optional parameter given as null is left out', () => {
    expect(checkFaeArguments(schema, { path: 'a', count: null, flag: null })).toBeUndefined();
  });

  test.each([
    [{ path: 5 }, 'path must be a string, got a number'],
    [{ path: ['a'] }, 'path must be a string, got an array'],
    [{ path: 'a', count: 1.5 }, 'count must be a whole number, got a number'],
    [{ path: 'a', count: '1.5' }, 'count must be a whole number, got a string'],
    [{ path: 'a', count: '' }, 'count must be a whole number, got a string'],
    [{ path: 'a', ratio: 'half' }, 'ratio must be a number, got a string'],
    [{ path: 'a', ratio: '  ' }, 'ratio must be a number, got a string'],
    [{ path: 'a', ratio: true }, 'ratio must be a number, got true or false'],
    [{ path: 'a', flag: 'yes' }, 'flag must be true or false, got a string'],
    [{ path: 'a', list: {} }, 'list must be an array, got an object'],
    [{ path: 'a', options: [] }, 'options must be an object, got an array'],
    [{ path: 'a', options: 'x' }, 'options must be an object, got a string'],
    [{ path: 'a', either: 3 }, 'either must be a string or null, got a number'],
  ])('%j is refused: %s', (args, why) => {
    expect(checkFaeArguments(schema, args)).toBe(why);
  });

  test('a schema without properties or required takes anything', () => {
    expect(checkFaeArguments({ type: 'object' }, { x: 1 })).toBeUndefined();
  });
});
