/**
 * Each built-in tool is defined once (src/tools/builtin-schemas.ts): the
 * schema the model is offered and the check its arguments pass are made
 * from the same definition, so they agree (behaviour 4): every parameter an
 * op reads is one the model was told about, a tool's advertised `required`
 * are exactly what it cannot run without, and a group's `op` enum is its ops.
 */
import { describe, expect, test } from 'vitest';
import {
  BUILTIN_DEFINITIONS,
  BUILTIN_SCHEMAS,
  readsEntry,
  type Reads,
} from '../src/tools/builtin-schemas.js';
import { validateArguments } from '../src/tools/validate-arguments.js';

const schemaOf = (name: string) =>
  BUILTIN_SCHEMAS.find(schema => schema.function.name === name)!.function.parameters;

type Case = [tool: string, op: string | undefined, reads: Reads];
const cases: Case[] = BUILTIN_DEFINITIONS.flatMap((definition): Case[] =>
  definition.ops === undefined
    ? [[definition.name, undefined, definition.reads ?? []]]
    : Object.entries(definition.ops).map(([op, reads]): Case => [definition.name, op, reads]),
);

describe('one definition per built-in tool', () => {
  test.each(cases)('%s %s: reads only advertised parameters', (tool, _op, reads) => {
    const advertised = Object.keys(schemaOf(tool).properties ?? {});
    for (const entry of reads) expect(advertised).toContain(readsEntry(entry).name);
  });

  test.each(cases)(
    '%s %s: each required parameter left out is named; nothing else is required',
    (tool, op, reads) => {
      const needed = reads.map(readsEntry).filter(entry => !entry.optional);
      if (op === undefined) {
        expect(schemaOf(tool).required ?? []).toEqual(needed.map(entry => entry.name));
      } else {
        expect(schemaOf(tool).properties?.op?.enum).toContain(op);
      }
      for (const { name } of needed) {
        const others = Object.fromEntries(
          needed.filter(entry => entry.name !== name).map(entry => [entry.name, '1']),
        );
        expect(() => validateArguments(tool, op, { ...others, [name]: undefined })).toThrow(
          op === undefined ? `${name} is required` : `${op}: ${name} is required`,
        );
      }
    },
  );

  test('values come in the form the tool wants, under their own names, from former names too', () => {
    expect(validateArguments('names', 'move', { fromPath: 'a/b', toPath: ['c'] })).toEqual({
      path: ['a', 'b'],
      to: ['c'],
    });
    expect(validateArguments('mail', 'reject', { messageNumber: '+5' })).toEqual({
      messageNumber: 5n,
    });
    expect(validateArguments('names', 'list', {})).toEqual({ path: [] });
    expect(validateArguments('names', 'store', { value: null, path: 'x' })).toEqual({
      value: null,
      path: ['x'],
    });
    expect(() => validateArguments('mail', 'dismiss', { messageNumber: 'five' })).toThrow(
      /^dismiss: messageNumber must be a whole message number/,
    );
    expect(() => validateArguments('schedule', undefined, { delaySeconds: 'soon' })).toThrow(
      'delaySeconds must be a number',
    );
  });
});
