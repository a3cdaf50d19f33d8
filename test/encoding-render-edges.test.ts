/**
 * Tool results the model is shown, at their edges: values JSON cannot hold
 * (symbols, plain functions, infinities, cycles, promises) are named rather
 * than lost or thrown on, a remotable that does not list its methods is still
 * named, and a failed call renders its message whatever was thrown. The
 * common cases are in agent-encoding.test.ts.
 */
import { describe, expect, test } from 'vitest';
import { Far } from '@endo/far';
import {
  describeRemotable,
  renderError,
  renderForModel,
} from '../src/encoding/render-for-model.js';

describe('renderForModel at the edges', () => {
  test('symbols, plain functions, infinities and promises are named', async () => {
    const text = await renderForModel({
      sym: Symbol('tag'),
      // eslint-disable-next-line symbol-description -- the case under test: a symbol without one
      anon: Symbol(),
      fn: () => 1,
      up: Infinity,
      down: -Infinity,
      pending: new Promise(() => {}),
      nothing: null,
      yes: true,
    });
    expect(JSON.parse(text)).toEqual({
      sym: '%tag',
      anon: '%',
      fn: '#function',
      up: '#Infinity',
      down: '#-Infinity',
      pending: '&promise',
      nothing: null,
      yes: true,
    });
  });

  test('a cycle is marked instead of overflowing; a value seen twice side by side is shown twice', async () => {
    const shared = { x: 1 };
    const loop: Record<string, unknown> = { name: 'loop' };
    loop.self = loop;
    expect(JSON.parse(await renderForModel({ a: shared, b: shared, loop }))).toEqual({
      a: { x: 1 },
      b: { x: 1 },
      loop: { name: 'loop', self: '#cycle' },
    });
  });

  test('a remotable function is described like any remotable', async () => {
    const described: unknown[] = [];
    const fn = Far('callback', () => 1);
    const text = await renderForModel([fn], async value => {
      described.push(value);
      return '$Alleged: callback';
    });
    expect(text).toBe('["$Alleged: callback"]');
    expect(described).toEqual([fn]);
  });
});

describe('describeRemotable', () => {
  test('a remotable whose method list is not a list is named by its interface only', async () => {
    const odd = Far('Odd', { __getMethodNames__: () => 'not a list' });
    expect(await describeRemotable(odd)).toBe('$Alleged: Odd');
  });

  test('one whose method list fails is named by its interface only; hidden methods are not listed', async () => {
    const failing = Far('Failing', {
      __getMethodNames__: () => {
        throw Error('no');
      },
    });
    expect(await describeRemotable(failing)).toBe('$Alleged: Failing');
    const hidden = Far('Hidden', { __getMethodNames__: () => ['__secret', 'open', 7] });
    expect(await describeRemotable(hidden)).toBe('$Alleged: Hidden (methods: open)');
  });
});

describe('renderError', () => {
  test('an Error gives its message; anything else its text', () => {
    expect(renderError(Error('bad path'))).toBe('{"error":"bad path"}');
    expect(renderError('plain')).toBe('{"error":"plain"}');
  });
});
