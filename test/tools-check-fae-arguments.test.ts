/**
 * A FaeTool call's arguments against the schema the tool declared (behaviour
 * 6.1): required parameters given, each given one of a declared type, with
 * numbers accepted as numeric text (as the tools read them) and nothing
 * converted. The answer names the parameter and what it should be.
 */
import { describe, expect, test } from 'vitest';
import { checkArgumentNames, checkFaeArguments } from '../src/agent-tools/check-fae-arguments.js';

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

describe('the one check of names (the agent and the caplets of tools/ alike)', () => {
  const closed = { ...schema, additionalProperties: false };

  test('a schema that closes its names refuses one it does not declare, before anything else', () => {
    expect(checkFaeArguments(closed, { path: 'a', colour: 'red', size: 2 })).toBe(
      'unknown argument(s) colour, size; expected path, count, ratio, flag, list, options, either, anything',
    );
    expect(checkFaeArguments(closed, { colour: 'red' })).toMatch(/^unknown argument\(s\) colour;/);
    expect(checkFaeArguments(closed, { path: 'a' })).toBeUndefined();
  });

  test('a schema that leaves its names open takes others as given', () => {
    expect(checkFaeArguments(schema, { path: 'a', colour: 'red' })).toBeUndefined();
    expect(
      checkFaeArguments({ ...schema, additionalProperties: true }, { path: 'a', colour: 'red' }),
    ).toBeUndefined();
  });

  test('names alone: a type that does not fit is not its business', () => {
    expect(checkArgumentNames(closed, { path: 5 })).toBeUndefined();
    expect(checkArgumentNames(closed, { path: null })).toBe('path is required');
    expect(checkFaeArguments(closed, { path: 5 })).toMatch(/^path must be a string/);
  });
});
