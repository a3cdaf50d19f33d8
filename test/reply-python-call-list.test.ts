/**
 * The reader of Python-style call lists (`[get_time(zone='UTC')]`, as
 * Llama 3.2 and other pythonic models write them): Python literals become
 * JSON values, string escapes are honoured, and anything that is not
 * exactly a list of calls gives no calls (the reply stays text) rather than
 * a half-read call.
 */
import { describe, expect, test } from 'vitest';
import { readPythonCallList } from '../src/reply/formats/python-call-list.js';

describe('readPythonCallList', () => {
  test('several calls with every kind of Python literal', () => {
    expect(
      readPythonCallList(
        `[get_weather(city="Oslo", days=3, ratio=-1.5e2, ok=True, no=False, none=None), send(to='HOST', tags=['a', "b",], pair=(1, 2), opts={'k': 'v', "n": .5},)]`,
      ),
    ).toEqual([
      {
        name: 'get_weather',
        args: { city: 'Oslo', days: 3, ratio: -150, ok: true, no: false, none: null },
      },
      {
        name: 'send',
        args: { to: 'HOST', tags: ['a', 'b'], pair: [1, 2], opts: { k: 'v', n: 0.5 } },
      },
    ]);
  });

  test('string escapes: named ones, \\u, and unknown ones kept as written', () => {
    const [call] = readPythonCallList(String.raw`[say(text='a\'b\n\t\\ \u00e9 \q "quoted" \0')]`)!;
    expect(call!.args.text).toBe(`a'b\n\t\\ é \\q "quoted" \0`);
  });

  test('calls with no arguments, and dotted names, are read', () => {
    expect(readPythonCallList('[ help( ) , functions.list() ]')).toEqual([
      { name: 'help', args: {} },
      { name: 'functions.list', args: {} },
    ]);
  });

  test.each([
    ['no list', 'get_time()'],
    ['an empty list', '[]'],
    ['words after the list', '[get_time()] and then'],
    ['a positional argument', "[get_time('UTC')]"],
    ['an unterminated string', "[get_time(zone='UTC)]"],
    ['a newline inside a string', "[say(text='a\nb')]"],
    ['a dict with a number for a key', '[f(d={1: 2})]'],
    ['a missing comma', '[f(a=1 b=2)]'],
    ['an unknown word', '[f(a=null)]'],
    ['a list that never closes', '[f(a=1)'],
    ['no name', '[(a=1)]'],
  ])('%s gives no calls', (_what, source) => {
    expect(readPythonCallList(source)).toBeUndefined();
  });
});
