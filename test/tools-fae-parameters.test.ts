// A FaeTool's parameters stated once (tools/lib/fae-parameters.ts, docs/tools.md): one record
// yields the schema the model is offered and the check that reads a call's arguments into the
// values `run` is given, so the schema and the check cannot disagree.
import { E } from '@endo/far';
import { describe, expect, test } from 'vitest';
import {
  choice,
  commandLine,
  finiteNumber,
  integer,
  optional,
  parameters,
  text,
} from '../tools/lib/fae-parameters.js';
import { makeFaeTool } from '../tools/lib/make-fae-tool.js';
import { make as makeGreet } from '../tools/greet.js';
import { make as makeMath } from '../tools/math.js';

const stated = parameters({
  path: text('A path.'),
  content: optional(text('Its content.', { allowEmpty: true })),
  lines: optional(integer('How many.', { min: 1, max: 10 })),
  from: optional(integer('From where.', { min: 0 })),
  scale: optional(finiteNumber('A factor.')),
  mode: optional(choice('How.', ['fast', 'Safe'], { careful: 'Safe' })),
  command: optional(commandLine('What to run.', { line: 'A line.', words: 'Words.' })),
});

describe('one record yields the schema offered', () => {
  test('each parameter its schema, the required ones those not optional, nothing else allowed', () => {
    expect(stated.schema).toEqual({
      type: 'object',
      properties: {
        path: { type: 'string', description: 'A path.', minLength: 1 },
        content: { type: 'string', description: 'Its content.' },
        lines: { type: 'integer', description: 'How many.', minimum: 1, maximum: 10 },
        from: { type: 'integer', description: 'From where.', minimum: 0 },
        scale: { type: 'number', description: 'A factor.' },
        mode: { type: 'string', description: 'How.', enum: ['fast', 'Safe'] },
        command: {
          anyOf: [
            { type: 'string', minLength: 1, description: 'A line.' },
            { type: 'array', items: { type: 'string' }, minItems: 1, description: 'Words.' },
          ],
          description: 'What to run.',
        },
      },
      required: ['path'],
      additionalProperties: false,
    });
    expect(Object.isFrozen(stated.schema)).toBe(true);
  });
});

describe("the same record reads a call's arguments", () => {
  const read = (args: Record<string, unknown>) => stated.read('tool', args);

  test('what fits is read into the values run is given; left out or null is absent', () => {
    expect(read({ path: 'a' })).toEqual({ path: 'a' });
    expect(
      read({
        path: 'a',
        content: '',
        lines: '10',
        from: 0n,
        scale: ' -2.5 ',
        mode: ' CAREFUL ',
        command: ['ls', '-l'],
      }),
    ).toEqual({
      path: 'a',
      content: '',
      lines: 10,
      from: 0,
      scale: -2.5,
      mode: 'Safe',
      command: ['ls', '-l'],
    });
    expect(read({ path: 'a', lines: null, mode: 'FAST', command: 'ls -l' })).toEqual({
      path: 'a',
      mode: 'fast',
      command: 'ls -l',
    });
  });

  test.each([
    [{}, 'tool: path is required'],
    [{ path: null }, 'tool: path is required'],
    [
      { path: 'a', colour: 'red', size: 1 },
      'tool: unknown argument(s) colour, size; expected path, content, lines, from, scale, mode, command',
    ],
    [{ path: '' }, 'tool: path must not be empty'],
    [{ path: 3 }, 'tool: path must be a string, got a number'],
    [{ path: 'a', content: [] }, 'tool: content must be a string, got an array'],
    [{ path: 'a', lines: 0 }, 'tool: lines must be between 1 and 10, got 0'],
    [{ path: 'a', lines: 11 }, 'tool: lines must be between 1 and 10, got 11'],
    [{ path: 'a', lines: 1.5 }, 'tool: lines must be an integer, got a number'],
    [{ path: 'a', lines: 'two' }, 'tool: lines must be an integer, got a string'],
    [
      { path: 'a', from: -1 },
      `tool: from must be between 0 and ${Number.MAX_SAFE_INTEGER}, got -1`,
    ],
    [{ path: 'a', scale: true }, 'tool: scale must be a number, got a boolean'],
    [
      { path: 'a', scale: Number.POSITIVE_INFINITY },
      'tool: scale must be a finite number, got Infinity',
    ],
    [{ path: 'a', scale: 2n ** 64n }, 'tool: scale is too large to compute exactly'],
    [{ path: 'a', mode: 'slow' }, 'tool: mode must be one of fast, Safe, got "slow"'],
    [{ path: 'a', mode: 1 }, 'tool: mode must be a string, got a number'],
    [{ path: 'a', command: ' ' }, 'tool: command must not be empty'],
    [{ path: 'a', command: [] }, 'tool: command array must not be empty'],
    [{ path: 'a', command: ['', 'x'] }, 'tool: command[0] must name a program'],
    [{ path: 'a', command: ['ls', 2] }, 'tool: command[1] must be a string, got a number'],
    [
      { path: 'a', command: { ls: true } },
      'tool: command must be a string or an array of strings, got an object',
    ],
  ])('%#: refused as the schema says', (args, message) => {
    expect(() => read(args)).toThrow(message);
    expect(() => read(args)).toThrow(new RegExp(`^${message.replace(/[()[\]$^.*+?]/g, '\\$&')}$`));
  });
});

describe('a tool made from stated parameters', () => {
  test('is offered the stated schema, checks each call with it, and runs with its values', async () => {
    const seen: unknown[] = [];
    const tool = makeFaeTool({
      name: 'count',
      description: 'Counts.',
      parameters: parameters({ upTo: integer('The last.', { min: 1, max: 3 }) }),
      returns: 'numbers',
      help: 'Counts up.',
      run: ({ upTo }) => {
        seen.push(upTo);
        return Array.from({ length: upTo }, (_, index) => index + 1);
      },
    });
    await expect(E(tool).schema()).resolves.toMatchObject({
      function: { parameters: { required: ['upTo'], properties: { upTo: { maximum: 3 } } } },
    });
    expect(await E(tool).help()).toBe('count({ upTo }) -> numbers\nCounts up.');
    expect(await E(tool).execute(harden({ upTo: '2' }))).toEqual([1, 2]);
    await expect(E(tool).execute(harden({ upTo: 4 }))).rejects.toThrow(
      'count: upTo must be between 1 and 3, got 4',
    );
    expect(seen).toEqual([2]);
  });

  test('greet understands a language by its English name, any case; math an operation any case', async () => {
    const greet = makeGreet();
    expect(await E(greet).execute(harden({ name: 'Ada', language: 'French' }))).toEqual({
      greeting: 'Bonjour, Ada !',
      language: 'fr',
    });
    expect(await E(greet).execute(harden({ name: 'Ada', language: ' DE ' }))).toEqual({
      greeting: 'Hallo, Ada!',
      language: 'de',
    });
    const math = makeMath();
    expect(await E(math).execute(harden({ operation: 'Add', a: '2', b: 3n }))).toEqual({
      operation: 'add',
      a: 2,
      b: 3,
      result: 5,
    });
  });
});

describe('a bound a tool holds is its schema’s', () => {
  test('greet: a name of only spaces is refused by what its schema states (a pattern), not by a check of its own', async () => {
    const greet = makeGreet();
    const schema = await E(greet).schema();
    const pattern = schema.function.parameters.properties?.name?.pattern;
    expect(typeof pattern).toBe('string');
    const allows = (name: string) => new RegExp(String(pattern), 'u').test(name);
    expect(allows('   ')).toBe(false);
    expect(allows(' Ada ')).toBe(true);
    await expect(E(greet).execute(harden({ name: ' \t ' }))).rejects.toThrow(
      /^greet: name must not be blank$/,
    );
    expect(await E(greet).execute(harden({ name: '  Ada ' }))).toMatchObject({
      greeting: 'Hello, Ada!',
    });
  });
});
