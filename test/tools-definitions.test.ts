/**
 * Each built-in tool is defined once (src/agent-tools/builtin-schemas.ts): the
 * schema the model is offered and the check its arguments pass are made
 * from the same definition, so they agree (behaviour 4): every parameter an
 * op reads is one the model was told about, a tool's advertised `required`
 * are exactly what it cannot run without, and a group's `op` enum is its ops.
 */
import { describe, expect, expectTypeOf, test } from 'vitest';
import {
  BUILTIN_DEFINITIONS,
  BUILTIN_SCHEMAS,
  readsEntry,
  type BuiltinArgs,
  type BuiltinCall,
  type Reads,
} from '../src/agent-tools/builtin-schemas.js';
import { TOOL_GROUPS, type GroupedCall } from '../src/agent-tools/tool-groups.js';
import {
  dispatchBuiltinTool,
  type BuiltinContext,
} from '../src/builtin-tools/dispatch-builtin-tool.js';
import { validateArguments, validatedCall } from '../src/agent-tools/validate-arguments.js';
import { KINDS, type KindName } from '../src/agent-tools/tool-parameters.js';

/** A value each kind reads. */
const sampleOf = (kind: KindName): unknown =>
  ({
    text: 'x',
    path: 'a/b',
    names: ['x'],
    grant: ['x', '2 calls'],
    paths: ['a'],
    messageNumber: 1,
    number: 2,
    value: 'v',
  })[kind];

const schemaOf = (name: string) =>
  BUILTIN_SCHEMAS.find(schema => schema.function.name === name)!.function.parameters;

type Case = [tool: string, op: string | undefined, reads: Reads];
const cases: Case[] = BUILTIN_DEFINITIONS.flatMap((definition): Case[] =>
  definition.ops === undefined
    ? [[definition.name, undefined, definition.reads ?? []]]
    : Object.entries(definition.ops).map(([op, record]): Case => [
        definition.name,
        op,
        record.reads,
      ]),
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
          new RegExp(`^${op === undefined ? '' : `${op}: `}${name} is required$`),
        );
      }
    },
  );

  test('values come in the form the tool wants, under their own names, from former names too', () => {
    expect(validateArguments('names', 'move', { fromPath: 'a/b', toPath: ['c'] })).toEqual({
      path: ['a', 'b'],
      to: ['c'],
    });
    // Optional parameters left out are absent, or the empty list a list stands for.
    expect(validateArguments('mail', 'reject', { messageNumber: '+5' })).toStrictEqual({
      messageNumber: 5n,
    });
    expect(validateArguments('names', 'list', {})).toStrictEqual({ path: [] });
    expect(
      validateArguments('evaluate', undefined, { source: '1', resultName: 'r' }),
    ).toStrictEqual({ source: '1', codeNames: [], petNamePaths: [], resultName: 'r' });
    expect(
      validateArguments('reply', undefined, { messageNumber: 1, strings: 'hi' }),
    ).toStrictEqual({ messageNumber: 1n, strings: ['hi'], edgeNames: [], petNames: [] });
    expect(validateArguments('names', 'store', { value: null, path: 'x' })).toEqual({
      value: null,
      path: ['x'],
    });
    expect(() => validateArguments('mail', 'dismiss', { messageNumber: 'five' })).toThrow(
      /^dismiss: messageNumber must be a whole message number/,
    );
    expect(() => validateArguments('schedule', undefined, { delaySeconds: 'soon' })).toThrow(
      /^delaySeconds must be a number$/,
    );
  });

  test("a grouped op's error names the op and keeps the reader's error as its cause", () => {
    let thrown: unknown;
    try {
      validateArguments('names', 'move', { path: 'a' });
    } catch (error) {
      thrown = error;
    }
    expect((thrown as Error).message).toBe('move: to is required');
    expect(((thrown as Error).cause as Error).message).toBe('to is required');
  });

  test("dispatch's defaults are invariants: a built-in or group it has no case for is named, quoted", async () => {
    const context = {} as BuiltinContext;
    // Calls no decoding makes: the compiler's exhaustive switch leaves these to the invariants.
    const made = (op: string) => ({ op, values: {} }) as unknown as BuiltinCall;
    await expect(
      dispatchBuiltinTool('frobnicate', made('frobnicate'), undefined, context),
    ).rejects.toThrow(/^Unknown tool "frobnicate"$/);
    const grouped: GroupedCall = { group: 'files', op: 'open' };
    await expect(dispatchBuiltinTool('files', made('open'), grouped, context)).rejects.toThrow(
      /^open: Unknown tool group "files"$/,
    );
    for (const group of ['names', 'mail']) {
      await expect(
        dispatchBuiltinTool(group, made('shred'), { group, op: 'shred' }, context),
      ).rejects.toThrow(new RegExp(`^shred: ${group} has no op "shred"$`));
    }
  });

  test('a tool or op that is not defined is refused by name', () => {
    expect(() => validateArguments('frobnicate', undefined, {})).toThrow(
      /^Unknown tool "frobnicate"$/,
    );
    expect(() => validateArguments('names', 'frobnicate', {})).toThrow(
      /^names has no op "frobnicate"$/,
    );
    expect(() => validateArguments('reply', 'list', {})).toThrow(/^reply has no op "list"$/);
  });

  test('the schemas offered are those the bench measured (figure 6), made from the kinds', () => {
    const text = { type: 'string' };
    const names = { type: 'array', items: { type: 'string' } };
    const properties = (tool: string) => schemaOf(tool).properties;
    expect(properties('reply')).toEqual({
      messageNumber: { type: 'integer' },
      strings: names,
      edgeNames: names,
      petNames: names,
    });
    expect(properties('send')).toEqual({
      recipient: text,
      // That it is sent exactly as written, the system prompt says of all text.
      strings: names,
      edgeNames: names,
      petNames: names,
    });
    expect(properties('names')).toEqual({
      op: { type: 'string', enum: TOOL_GROUPS.names },
      path: text,
      to: text,
      value: { description: 'Read as SmallCaps: "+5" is the bigint 5, "!+5" the text +5.' },
      methodName: text,
    });
    expect(properties('schedule')).toEqual({
      note: text,
      delaySeconds: { type: 'number' },
      at: text,
      every: text,
      cancel: text,
    });
    expect(Object.keys(properties('mail') ?? {})).toEqual(['op', ...Object.keys(mailKinds)]);
    for (const [name, kind] of Object.entries(mailKinds)) {
      expect(properties('mail')?.[name]).toEqual(
        kind === 'integer'
          ? { type: 'integer' }
          : kind === 'list'
            ? { type: 'array', items: { type: 'string' } }
            : text,
      );
    }
  });
});

const mailKinds = {
  messageNumber: 'integer',
  recipient: 'text',
  description: 'text',
  responseName: 'text',
  edgeName: 'text',
  petName: 'text',
  toolName: 'text',
  path: 'text',
  reason: 'text',
  query: 'text',
  grant: 'list',
};

describe("each op's one record yields its argument type", () => {
  test('the types: required ones as their kinds read them, optional ones with a default always there, the others optional', () => {
    expectTypeOf<BuiltinArgs<'move'>>().toEqualTypeOf<{
      readonly path: string[];
      readonly to: string[];
    }>();
    expectTypeOf<BuiltinArgs<'list'>>().toEqualTypeOf<{ readonly path: string[] }>();
    expectTypeOf<BuiltinArgs<'reject'>>().toEqualTypeOf<{
      readonly messageNumber: bigint;
      readonly reason?: string;
    }>();
    expectTypeOf<BuiltinArgs<'reply'>>().toEqualTypeOf<{
      readonly messageNumber: bigint;
      readonly strings: string[];
      readonly edgeNames: string[];
      readonly petNames: (string | string[])[];
    }>();
    expectTypeOf<BuiltinArgs<'schedule'>>().toEqualTypeOf<{
      readonly note?: string;
      readonly delaySeconds?: number;
      readonly at?: string;
      readonly every?: string;
      readonly cancel?: string;
    }>();
  });

  test('validatedCall gives the op it runs and the values its record read, as those types say', () => {
    const moved = validatedCall('names', 'move', { fromPath: 'a/b', toPath: ['c'] });
    expect(moved).toEqual({ op: 'move', values: { path: ['a', 'b'], to: ['c'] } });
    const replied = validatedCall('reply', undefined, { messageNumber: '+3', strings: 'hi' });
    expect(replied).toEqual({
      op: 'reply',
      values: { messageNumber: 3n, strings: ['hi'], edgeNames: [], petNames: [] },
    });
    // Every op, with its required parameters given: each optional one with a default is there.
    for (const definition of BUILTIN_DEFINITIONS) {
      const ops = definition.ops === undefined ? { [definition.name]: definition } : definition.ops;
      for (const [op, record] of Object.entries(ops)) {
        const call = validatedCall(
          definition.name,
          definition.ops === undefined ? undefined : op,
          Object.fromEntries(
            record.reads
              .map(readsEntry)
              .filter(({ optional }) => !optional)
              .map(({ name }) => [name, sampleOf(definition.parameters[name]!.kind)]),
          ),
        );
        expect(call.op).toBe(op);
        for (const { name, optional } of record.reads.map(readsEntry)) {
          const filled = KINDS[definition.parameters[name]!.kind];
          expect(Object.hasOwn(call.values, name)).toBe(!optional || 'absent' in filled);
        }
      }
    }
  });
});
