/**
 * The readers of tool arguments: each gives the guest power the form it
 * wants from what models actually write (numbers as text, "a/b" paths, a
 * lone string for a list), and refuses the rest with an error that names
 * the argument and what to fix.
 */
import { describe, expect, test } from 'vitest';
import {
  readMessageNumber,
  checkMessageParts,
  readPassable,
  readPath,
  readPathList,
  readString,
  readStringList,
} from '../src/agent-tools/read-args.js';
import { validateArguments } from '../src/agent-tools/validate-arguments.js';

describe('strings', () => {
  test('a number stands for its text; missing and wrong kinds are refused by name', () => {
    expect(readString({ name: 42 }, 'name')).toBe('42');
    expect(readString({ name: 7n }, 'name')).toBe('7');
    expect(() => readString({}, 'name')).toThrow('name is required');
    expect(() => readString({ name: '' }, 'name')).toThrow('name is required');
    expect(() => readString({ name: ['a'] }, 'name')).toThrow('name must be a string');
    // An optional text left out (or null) is absent; given, it is read the same way.
    expect(validateArguments('mail', 'reject', { messageNumber: 1, reason: null })).toEqual({
      messageNumber: 1n,
    });
    expect(() => validateArguments('mail', 'reject', { messageNumber: 1, reason: {} })).toThrow(
      'reject: reason must be a string',
    );
  });

  test('a list may be one string; its numbers are text; anything else is refused at its index', () => {
    expect(readStringList({ s: 'one' }, 's')).toEqual(['one']);
    expect(readStringList({}, 's')).toEqual([]);
    expect(readStringList({ s: ['a', 2, 3n] }, 's')).toEqual(['a', '2', '3']);
    expect(() => readStringList({ s: { a: 1 } }, 's')).toThrow('s must be an array of strings');
    expect(() => readStringList({ s: ['a', null] }, 's')).toThrow('s[1] must be a string');
  });
});

describe('paths', () => {
  test('"a/b" and ["a", "b"] are the same path; empty parts and other kinds are refused', () => {
    expect(readPath({ p: 'dir/name' }, 'p')).toEqual(['dir', 'name']);
    expect(readPath({ p: ['dir', 'name'] }, 'p')).toEqual(['dir', 'name']);
    expect(() => readPath({ p: null }, 'p')).toThrow('p is required');
    expect(() => readPath({ p: [] }, 'p')).toThrow('p must be a pet name or an array of pet names');
    expect(() => readPath({ p: 5 }, 'p')).toThrow('p must be a pet name or an array of pet names');
    expect(() => readPath({ p: 'dir//name' }, 'p')).toThrow('p[1] must be a non-empty string');
    expect(() => readPath({ p: ['a', 3] }, 'p')).toThrow('p[1] must be a non-empty string');
  });

  test('an optional path may be absent or empty', () => {
    const listed = (path: unknown) => validateArguments('names', 'list', { path }).path;
    expect(listed(undefined)).toEqual([]);
    expect(listed([])).toEqual([]);
    expect(listed('')).toEqual([]);
    expect(listed('a/b')).toEqual(['a', 'b']);
  });

  test('a list of pet names takes names and paths, and refuses empty ones at their index', () => {
    expect(readPathList({ n: ['a', 'dir/b', ['c', 'd']] }, 'n')).toEqual([
      'a',
      ['dir', 'b'],
      ['c', 'd'],
    ]);
    expect(readPathList({}, 'n')).toEqual([]);
    expect(() => readPathList({ n: 'a' }, 'n')).toThrow('n must be an array of pet names');
    expect(() => readPathList({ n: ['a', ''] }, 'n')).toThrow('n[1] must be a pet name or a path');
    expect(() => readPathList({ n: [[]] }, 'n')).toThrow('n[0] must be a pet name or a path');
    expect(() => readPathList({ n: [['a', '']] }, 'n')).toThrow(
      'n[0] must be a pet name or a path',
    );
  });
});

describe('message numbers', () => {
  test('5, "5", "+5", "#5" and 5n are message 5', () => {
    for (const value of [5, '5', '+5', '#5', ' 5 ', 5n])
      expect(readMessageNumber({ messageNumber: value })).toBe(5n);
  });

  test('negative, fractional, unsafe and wordy numbers are refused with what was given', () => {
    expect(() => readMessageNumber({})).toThrow('messageNumber is required');
    expect(() => readMessageNumber({ messageNumber: -1n })).toThrow(
      'messageNumber must not be negative',
    );
    expect(() => readMessageNumber({ messageNumber: -1 })).toThrow(
      'must be a whole message number such as 5, got "-1"',
    );
    expect(() => readMessageNumber({ messageNumber: 1.5 })).toThrow('got "1.5"');
    expect(() => readMessageNumber({ messageNumber: 2 ** 60 })).toThrow(
      'must be a whole message number',
    );
    expect(() => readMessageNumber({ number: 'five' }, 'number')).toThrow(
      'number must be a whole message number such as 5, got "five"',
    );
  });
});

describe('message parts', () => {
  test('missing trailing text parts are added, since that loses nothing', () => {
    expect(
      checkMessageParts({ strings: ['see '], edgeNames: ['doc'], petNames: ['report'] }),
    ).toEqual({
      strings: ['see ', ''],
      edgeNames: ['doc'],
      petNames: ['report'],
    });
  });

  test('no text, unmatched names or extra parts are refused with counts', () => {
    expect(() => checkMessageParts({ strings: [] })).toThrow('strings is required');
    expect(() => checkMessageParts({ strings: ['a'], edgeNames: ['x'] })).toThrow(
      'edgeNames and petNames must have the same length (one edge name per attached value), got 1 and 0',
    );
    expect(() =>
      checkMessageParts({ strings: ['a', 'b', 'c'], edgeNames: ['x'], petNames: ['y'] }),
    ).toThrow('strings has 3 parts but 1 value(s) are attached');
  });
});

describe('passables', () => {
  test('a missing value is refused; a present one is decoded, even when it is null', () => {
    expect(() => readPassable({}, 'value')).toThrow('value is required');
    expect(readPassable({ value: null }, 'value')).toBeNull();
    expect(readPassable({ value: 'plain' }, 'value')).toBe('plain');
  });
});
