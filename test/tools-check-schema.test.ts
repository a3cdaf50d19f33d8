/**
 * Whether a FaeTool's schema() answer can be offered to a model: what is
 * not plain JSON is refused with where it is, as is a schema too large, one
 * without a function object or with an invalid name; an accepted one is a
 * plain, hardened copy. The agent-level refusal is in
 * agent-fae-tool-refusal.test.ts.
 */
import { describe, expect, test } from 'vitest';
import { Far } from '@endo/far';
import {
  checkToolSchema,
  MAX_SCHEMA_CHARS,
  toPlainJson,
} from '../src/agent-tools/check-tool-schema.js';

const fn = (extra: Record<string, unknown> = {}) => ({
  type: 'function',
  function: { name: 'echo', parameters: { type: 'object', properties: {} }, ...extra },
});

describe('toPlainJson', () => {
  test('what JSON cannot carry is named with its place', () => {
    expect(toPlainJson({ a: [1, { b: Number.NaN }] })).toEqual({
      ok: false,
      reason: 'a non-finite number at a[1].b',
    });
    expect(toPlainJson(Symbol('s'))).toEqual({ ok: false, reason: 'a symbol at the top' });
    expect(toPlainJson({ f: () => 1 })).toEqual({ ok: false, reason: 'a function at f' });
    expect(toPlainJson({ [Symbol('k')]: 1 })).toEqual({
      ok: false,
      reason: 'a symbol-named property at the top',
    });
    expect(toPlainJson({ when: new Date(0) })).toEqual({
      ok: false,
      reason: 'an object that is not plain data (a remote object, promise or error) at when',
    });
    expect(toPlainJson({ tool: Far('Tool', {}) }).ok).toBe(false);
  });

  test('a cycle and nesting beyond 64 levels are refused; undefined properties are left out as JSON does', () => {
    const loop: Record<string, unknown> = {};
    loop.again = loop;
    expect(toPlainJson({ loop })).toEqual({ ok: false, reason: 'a cycle at loop.again' });
    let deep: unknown = 1;
    for (let index = 0; index < 70; index += 1) deep = [deep];
    expect(toPlainJson(deep)).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/^nesting deeper than 64 at /),
    });
    expect(toPlainJson({ a: undefined, b: null, c: Object.create(null) })).toEqual({
      ok: true,
      value: { b: null, c: {} },
    });
  });
});

describe('checkToolSchema', () => {
  test('an accepted schema is a hardened plain copy with a description and repaired parameters', () => {
    const raw = fn({
      parameters: { properties: { text: { type: 'string' } }, required: ['text', 'nope'] },
    });
    const result = checkToolSchema(raw);
    expect(result).toEqual({
      ok: true,
      schema: {
        type: 'function',
        function: {
          name: 'echo',
          description: '',
          parameters: {
            type: 'object',
            properties: { text: { type: 'string' } },
            required: ['text'],
          },
        },
      },
    });
    if (result.ok) expect(Object.isFrozen(result.schema.function)).toBe(true);
  });

  test('each refusal says why', () => {
    expect(checkToolSchema({ function: { name: 'x', big: 1n } })).toEqual({
      ok: false,
      reason: 'its schema is not plain JSON (a bigint at function.big)',
    });
    expect(checkToolSchema(fn({ description: 'x'.repeat(MAX_SCHEMA_CHARS) }))).toMatchObject({
      ok: false,
      reason: expect.stringMatching(new RegExp(`characters, more than ${MAX_SCHEMA_CHARS}$`)),
    });
    expect(checkToolSchema('echo')).toEqual({
      ok: false,
      reason: 'its schema has no "function" object',
    });
    expect(checkToolSchema({ function: [] })).toEqual({
      ok: false,
      reason: 'its schema has no "function" object',
    });
    expect(checkToolSchema({ function: null })).toEqual({
      ok: false,
      reason: 'its schema has no "function" object',
    });
    expect(checkToolSchema(fn({ name: 'functions.list' }))).toMatchObject({
      ok: false,
      reason: expect.stringContaining('"functions.list" is not a valid tool name'),
    });
    expect(checkToolSchema(fn({ name: 7 }))).toMatchObject({
      ok: false,
      reason: expect.stringContaining('7 is not a valid tool name'),
    });
    expect(checkToolSchema(fn({ parameters: { type: 'string' } }))).toEqual({
      ok: false,
      reason: 'its parameters are of type "string"; a tool\'s parameters must be an object',
    });
  });
});
