import { describe, expect, test } from 'vitest';
import { Far } from '@endo/far';
import { decodeArguments } from '../src/encoding/decode-arguments.js';
import { renderForModel } from '../src/encoding/render-for-model.js';
import { stripThinking } from '../src/reply/strip-thinking.js';
import {
  checkMessageParts,
  readMessageNumber,
  readPassable,
  readPath,
  type MessageParts,
} from '../src/agent-tools/read-args.js';
import { validateArguments } from '../src/agent-tools/validate-arguments.js';

/** A send's parts as the agent reads them: validated by its definition, then checked together. */
const sendParts = (args: Record<string, unknown>) =>
  checkMessageParts(
    validateArguments('send', undefined, { recipient: 'HOST', ...args }) as unknown as MessageParts,
  );

describe('decodeArguments (behaviour 3.3)', () => {
  test('strings are kept exactly as written (SmallCaps is read only by the readers of passable parameters)', () => {
    const decoded = decodeArguments(
      '{"n":"+5","m":"-7","u":"#undefined","s":"!+5","nested":["+1",{"x":"#NaN"}]}',
    );
    expect(decoded).toEqual({
      ok: true,
      args: { n: '+5', m: '-7', u: '#undefined', s: '!+5', nested: ['+1', { x: '#NaN' }] },
    });
  });
  test('a passable parameter is read SmallCaps-first; a string SmallCaps cannot read is kept as written', () => {
    const value = readPassable(
      {
        value: {
          n: '+5',
          m: '-7',
          u: '#undefined',
          s: '!+5',
          nested: ['+1', { x: '#NaN' }],
          text: ['- item (note) $5', '%sym', '$0.Alleged: x'],
        },
      },
      'value',
    );
    expect(value).toEqual({
      n: 5n,
      m: -7n,
      u: undefined,
      s: '+5',
      nested: [1n, { x: NaN }],
      text: ['- item (note) $5', '%sym', '$0.Alleged: x'],
    });
    expect(() => readPassable({}, 'value')).toThrow(/value is required/);
  });
  test('arguments that are not JSON give an error that says so, never {}', () => {
    const decoded = decodeArguments('{"messageNumber": 3, "strings": ["pong"');
    expect(decoded.ok).toBe(false);
    if (!decoded.ok) expect(decoded.error).toMatch(/not valid JSON/);
  });
  test('an array or a number is not an argument object', () => {
    expect(decodeArguments('[1,2]').ok).toBe(false);
    expect(decodeArguments('5').ok).toBe(false);
  });
  test('double-encoded JSON is read, empty arguments are {}', () => {
    expect(decodeArguments(JSON.stringify(JSON.stringify({ a: 1 })))).toEqual({
      ok: true,
      args: { a: 1 },
    });
    expect(decodeArguments('  ')).toEqual({ ok: true, args: {} });
  });
});

describe('argument readers (behaviour 4)', () => {
  test('message numbers from bigint, number, numeric string and SmallCaps', () => {
    expect(readMessageNumber({ messageNumber: 4n })).toBe(4n);
    expect(readMessageNumber({ messageNumber: 4 })).toBe(4n);
    expect(readMessageNumber({ messageNumber: '4' })).toBe(4n);
    expect(readMessageNumber({ messageNumber: '+4' })).toBe(4n);
    expect(() => readMessageNumber({})).toThrow('messageNumber is required');
    expect(() => readMessageNumber({ messageNumber: 'four' })).toThrow(/whole message number/);
    expect(() => readMessageNumber({ messageNumber: 1.5 })).toThrow(/whole message number/);
  });
  test('paths accept a string, a slashed string or an array', () => {
    expect(readPath({ p: 'tools/math' }, 'p')).toEqual(['tools', 'math']);
    expect(readPath({ p: ['a', 'b'] }, 'p')).toEqual(['a', 'b']);
    expect(() => readPath({}, 'petNamePath')).toThrow('petNamePath is required');
  });
  test('send parts: missing edge lists mean none; missing trailing strings are padded', () => {
    expect(sendParts({ strings: ['hi'] })).toEqual({
      strings: ['hi'],
      edgeNames: [],
      petNames: [],
    });
    expect(sendParts({ strings: ['see '], edgeNames: ['x'], petNames: ['tools/x'] })).toEqual({
      strings: ['see ', ''],
      edgeNames: ['x'],
      petNames: [['tools', 'x']],
    });
    expect(() => sendParts({ strings: ['a', 'b', 'c'] })).toThrow(/one string before each value/);
    expect(() => sendParts({ strings: ['a'], edgeNames: ['x'] })).toThrow(/same length/);
  });
});

describe('renderForModel (behaviour 3.4)', () => {
  test('bigints, undefined and remotables; strings as they are', async () => {
    const tool = Far('Calculator', { add: () => 1, help: () => '' });
    const text = await renderForModel(
      harden({ n: 5n, m: -2n, u: undefined, s: '-x', plain: 'hi', tool, list: [NaN] }),
    );
    const value = JSON.parse(text) as Record<string, unknown>;
    expect(value).toMatchObject({
      n: '+5',
      m: '-2',
      u: '#undefined',
      s: '-x',
      plain: 'hi',
      list: ['#NaN'],
    });
    expect(value.tool).toMatch(/^\$Alleged: Calculator \(methods: .*add.*\)$/);
    expect(value.tool).toMatch(/help/);
  });
  test('unhardened objects and errors render too', async () => {
    expect(await renderForModel({ status: 'pending', n: 1n })).toBe(
      '{"status":"pending","n":"+1"}',
    );
    expect(await renderForModel(new Error('nope'))).toBe('{"error":"nope"}');
  });
});

describe('reasoning written as text (behaviour 3.2; the calls: test/reply-formats.test.ts)', () => {
  test('<think> blocks, closed, open, or with a swallowed opening, are removed', () => {
    expect(stripThinking('<think>secret plan</think>Hello')).toBe('Hello');
    expect(stripThinking('Hello<think>still thinking')).toBe('Hello');
    expect(stripThinking('reasoning here</think>Answer')).toBe('Answer');
  });
});
