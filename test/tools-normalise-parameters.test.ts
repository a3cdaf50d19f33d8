/**
 * FaeTool parameter schemas repaired into the shape every provider accepts:
 * a top-level object with properties, no top-level oneOf/anyOf/allOf, and at
 * every level only valid `type`, `description`, `enum`, `items` and
 * `required`; a schema whose top level is not an object is refused with the
 * reason. The wire-level proof is in agent-tool-schema-wire.test.ts.
 */
import { describe, expect, test } from 'vitest';
import { normaliseToolParameters } from '../src/agent-tools/normalise-tool-parameters.js';

describe('normaliseToolParameters', () => {
  test('no parameters means an object without properties', () => {
    expect(normaliseToolParameters(undefined)).toEqual({
      ok: true,
      parameters: { type: 'object', properties: {} },
    });
    expect(normaliseToolParameters(null)).toEqual({
      ok: true,
      parameters: { type: 'object', properties: {} },
    });
  });

  test('parameters that are not an object schema are refused with the reason', () => {
    expect(normaliseToolParameters('x')).toEqual({
      ok: false,
      reason: 'its parameters are not a JSON Schema object',
    });
    expect(normaliseToolParameters([{ type: 'object' }])).toEqual({
      ok: false,
      reason: 'its parameters are not a JSON Schema object',
    });
    expect(normaliseToolParameters({ type: 'array' })).toEqual({
      ok: false,
      reason: 'its parameters are of type "array"; a tool\'s parameters must be an object',
    });
  });

  test('invalid fields are dropped at every level; valid ones and unknown keywords are kept', () => {
    const result = normaliseToolParameters({
      description: 42,
      additionalProperties: false,
      properties: {
        name: { type: 'text', description: 'who', enum: [] },
        tags: { type: ['array', 'null'], items: { type: 'string', enum: ['a', 'b'] } },
        pair: { type: 'array', items: [{ type: 'number' }, 'junk'] },
        loose: 'not a schema',
        bad: { type: [], items: 'x' },
      },
      required: ['name', 'missing', 'name', 7],
    });
    expect(result).toEqual({
      ok: true,
      parameters: {
        type: 'object',
        additionalProperties: false,
        properties: {
          name: { description: 'who' },
          tags: { type: ['array', 'null'], items: { type: 'string', enum: ['a', 'b'] } },
          pair: { type: 'array', items: [{ type: 'number' }, {}] },
          loose: {},
          bad: {},
        },
        required: ['name'],
      },
    });
  });

  test('top-level oneOf/anyOf/allOf are removed; nested ones are kept when they list something', () => {
    const result = normaliseToolParameters({
      type: 'object',
      oneOf: [{ required: ['a'] }],
      anyOf: [],
      allOf: [{}],
      properties: {
        value: { anyOf: [{ type: 'string' }, { type: 'number' }] },
        other: { oneOf: [] },
      },
    });
    expect(result).toEqual({
      ok: true,
      parameters: {
        type: 'object',
        properties: { value: { anyOf: [{ type: 'string' }, { type: 'number' }] }, other: {} },
      },
    });
  });

  test('properties that are not an object become none, and required names none of them is dropped', () => {
    expect(normaliseToolParameters({ properties: ['a'], required: ['a'] })).toEqual({
      ok: true,
      parameters: { type: 'object', properties: {} },
    });
  });
});
