/**
 * What a helper may be granted (src/helpers/grant.ts, behaviour 7.9), decided
 * from what its parent holds: the parent's own schemas narrowed to the tools
 * and ops named, pet names the parent holds with the reading ops of `names`,
 * and every refusal named in one error, nothing granted. The agent-level
 * cases (a helper made, run and told) are in agent-helpers*.test.ts.
 */
import { describe, expect, test } from 'vitest';
import type { ToolSchema } from '../providers/types.js';
import { BUILTIN_DEFINITIONS, BUILTIN_SCHEMAS } from '../src/agent-tools/builtin-schemas.js';
import { keepOps, offeredOps } from '../src/agent-tools/tool-groups.js';
import { decideGrant, type HeldPowers } from '../src/helpers/grant.js';

const math: ToolSchema = harden({
  type: 'function',
  function: {
    name: 'math',
    description: 'Evaluates an arithmetic expression.',
    parameters: { type: 'object', properties: { expression: { type: 'string' } } },
  },
});

const builtin = (name: string): ToolSchema =>
  BUILTIN_SCHEMAS.find(schema => schema.function.name === name)!;

/** What a parent holds: every built-in and `math`, the pet names `notes` and `things/list`. */
const held = (overrides: Partial<HeldPowers> = {}): HeldPowers => ({
  schemas: [...BUILTIN_SCHEMAS, math],
  hasPath: async path => ['notes', 'things/list'].includes(path.join('/')),
  whyNotHeld: () => undefined,
  canNest: true,
  depthLimit: 'no deeper than LAL_HELPER_DEPTH (2)',
  ...overrides,
});

const namesOf = (schemas: readonly ToolSchema[]) => schemas.map(schema => schema.function.name);
const opsOf = (schemas: readonly ToolSchema[], name: string) => {
  const schema = schemas.find(each => each.function.name === name);
  return schema === undefined ? undefined : offeredOps(schema);
};

/** The error `decideGrant` refuses with (fails the test when it grants). */
const refusal = async (asked: string[], powers = held()): Promise<string> => {
  const granted = await decideGrant(asked, powers).then(
    () => undefined,
    (error: Error) => error.message,
  );
  expect(granted).toBeDefined();
  return granted!;
};

describe('what a helper is granted', () => {
  test('a plain tool the parent holds is its very schema, and only it', async () => {
    const grant = await decideGrant(['math'], held());
    expect(grant.schemas).toEqual([math]);
    expect(grant.paths).toEqual([]);
    expect(grant.named).toEqual(['math']);
  });

  test('names are trimmed, given once, and blank ones dropped', async () => {
    const grant = await decideGrant([' math ', 'math', '', '   ', 'lookup'], held());
    expect(namesOf(grant.schemas)).toEqual(['names', 'math']);
    expect(grant.named).toEqual(['math', 'lookup']);
    expect(grant.paths).toEqual([]);
  });

  test('a group by name: every op the parent holds of it, and no more', async () => {
    const narrowed = keepOps(builtin('names'), op => op !== 'remove' && op !== 'move')!;
    const schemas = BUILTIN_SCHEMAS.map(schema =>
      schema.function.name === 'names' ? narrowed : schema,
    );
    const grant = await decideGrant(['names'], held({ schemas }));
    expect(namesOf(grant.schemas)).toEqual(['names']);
    expect(grant.schemas[0]).toBe(narrowed);
    expect(opsOf(grant.schemas, 'names')).toEqual(offeredOps(narrowed));
    expect(grant.named).toEqual(offeredOps(narrowed));
    // An op the parent's policy took out of the group is not held, so not granted.
    expect(await refusal(['remove'], held({ schemas }))).toBe(
      'Not granted: "remove" (not a tool or pet name you hold). Nothing was made.',
    );
  });

  test("single ops: the group's schema offering those ops alone, in the parent's order", async () => {
    const grant = await decideGrant(['lookup', 'math', 'list'], held());
    expect(namesOf(grant.schemas)).toEqual(['names', 'math']);
    expect(opsOf(grant.schemas, 'names')).toEqual(['list', 'lookup']);
    expect(grant.named).toEqual(['math', 'lookup', 'list']);
  });

  test('the helper op while the depth allows: mail offering helper and nothing else', async () => {
    const grant = await decideGrant(['helper'], held());
    expect(namesOf(grant.schemas)).toEqual(['mail']);
    expect(opsOf(grant.schemas, 'mail')).toEqual(['helper']);
    expect(grant.named).toEqual(['helper']);
  });

  test('the helper op past the depth limit is refused in its words', async () => {
    expect(await refusal(['helper'], held({ canNest: false }))).toBe(
      'Not granted: "helper" (no deeper than LAL_HELPER_DEPTH (2)). Nothing was made.',
    );
  });

  test('a group the parent does not hold, or only without the op, grants nothing of it', async () => {
    const schemas = [math];
    expect(await refusal(['lookup'], held({ schemas }))).toBe(
      'Not granted: "lookup" (not a tool or pet name you hold). Nothing was made.',
    );
    expect(await refusal(['names'], held({ schemas }))).toBe(
      'Not granted: "names" (not a tool or pet name you hold). Nothing was made.',
    );
    // The parent holds names without an `op` enum: every op of the group is its.
    const plain: ToolSchema = harden({
      ...builtin('names'),
      function: {
        ...builtin('names').function,
        parameters: { type: 'object', properties: {} },
      },
    });
    const grant = await decideGrant(['lookup'], held({ schemas: [plain] }));
    expect(opsOf(grant.schemas, 'names')).toEqual(['lookup']);
  });
});

describe('what a helper is refused', () => {
  test.each([
    ['reply', 'a helper mails no one: it hands back its result'],
    ['send', 'a helper mails no one: it hands back its result'],
    ['mail', 'a helper mails no one: it hands back its result'],
    ['dismiss', 'a helper mails no one: it hands back its result'],
    ['request', 'a helper mails no one: it hands back its result'],
    ['evaluate', 'a helper proposes no code to the host'],
    ['schedule', 'a helper sets no schedules'],
    ['toolbox', 'name the tools themselves'],
  ])('%s, held by the parent, is never a helper’s', async (name, why) => {
    expect(await refusal([name])).toBe(`Not granted: "${name}" (${why}). Nothing was made.`);
  });

  test('every built-in its record refuses a helper is refused in the record’s words, by its name, its op or its group; what it grants is granted', async () => {
    // Read from the records (`forHelper`), so a built-in added later is judged here as it says.
    const calls = BUILTIN_DEFINITIONS.flatMap(definition =>
      definition.ops === undefined
        ? [{ name: definition.name, forHelper: definition.forHelper }]
        : Object.entries(definition.ops).map(([op, record]) => ({
            name: op,
            forHelper: record.forHelper,
          })),
    );
    const refused = calls.filter(call => call.forHelper !== 'granted');
    expect(refused.map(call => call.name)).toEqual(
      expect.arrayContaining(['reply', 'send', 'evaluate', 'schedule', 'request', 'adoptTool']),
    );
    for (const { name, forHelper } of refused)
      if (forHelper !== 'granted')
        expect(await refusal([name])).toBe(
          `Not granted: "${name}" (${forHelper.refused}). Nothing was made.`,
        );
    const everything = held({ schemas: BUILTIN_SCHEMAS });
    for (const { name } of calls.filter(call => call.forHelper === 'granted')) {
      const grant = await decideGrant([name], everything);
      expect(grant.named, name).toEqual([name]);
    }
  });

  test('a tool the policy denies the parent is refused in the policy’s words, even when a pet name is so called', async () => {
    const powers = held({
      schemas: [builtin('names')],
      hasPath: async () => true,
      whyNotHeld: name =>
        name === 'math' ? 'math is not allowed here (LAL_TOOLS_DENY)' : undefined,
    });
    expect(await refusal(['math'], powers)).toBe(
      'Not granted: "math" (math is not allowed here (LAL_TOOLS_DENY)). Nothing was made.',
    );
  });

  test('a name with an empty part is not a pet name, whatever the parent holds', async () => {
    const powers = held({ hasPath: async () => true });
    for (const name of ['notes/', '/notes', 'things//list'])
      expect(await refusal([name], powers)).toBe(
        `Not granted: "${name}" (not a pet name). Nothing was made.`,
      );
  });

  test("a name is judged by what the maker holds, not by its spelling (the agent's own store is the boundary's)", async () => {
    // In a peer's turn an `agent-memory` is the peer's own; in the HOST's, the store boundary refuses it first.
    const grant = await decideGrant(
      ['agent-memory', 'notes/agent-memory'],
      held({ hasPath: async () => true }),
    );
    expect(grant.paths).toEqual([['agent-memory'], ['notes', 'agent-memory']]);
  });

  test('a name asked twice is refused, or granted, once', async () => {
    expect(await refusal(['send', ' send', 'weather', 'weather '])).toBe(
      'Not granted: "send" (a helper mails no one: it hands back its result); ' +
        '"weather" (not a tool or pet name you hold). Nothing was made.',
    );
    const grant = await decideGrant(['notes', 'notes '], held());
    expect(grant.paths).toEqual([['notes']]);
  });

  test('every refusal is named in one error, in the order asked, and nothing is granted', async () => {
    expect(await refusal(['math', 'send', 'weather', 'nowhere/at-all'])).toBe(
      'Not granted: "send" (a helper mails no one: it hands back its result); ' +
        '"weather" (not a tool or pet name you hold); ' +
        '"nowhere/at-all" (not a tool or pet name you hold). Nothing was made.',
    );
  });
});

describe('pet names granted', () => {
  test('a held pet name comes with the reading ops of names the parent holds, and no other', async () => {
    const grant = await decideGrant(['notes', 'things/list'], held());
    expect(grant.paths).toEqual([['notes'], ['things', 'list']]);
    expect(namesOf(grant.schemas)).toEqual(['names']);
    expect(opsOf(grant.schemas, 'names')).toEqual([
      'list',
      'has',
      'lookup',
      'identify',
      'inspectCapability',
    ]);
    expect(grant.named).toEqual(['list', 'has', 'lookup', 'identify', 'inspectCapability']);
  });

  test('the reading ops are only those the parent holds; without names, none', async () => {
    const narrowed = keepOps(builtin('names'), op => op === 'lookup' || op === 'remove')!;
    const grant = await decideGrant(['notes'], held({ schemas: [narrowed, math] }));
    expect(opsOf(grant.schemas, 'names')).toEqual(['lookup']);
    expect(grant.named).toEqual(['lookup']);
    const bare = await decideGrant(['notes', 'math'], held({ schemas: [math] }));
    expect(bare.schemas).toEqual([math]);
    expect(bare.paths).toEqual([['notes']]);
    expect(bare.named).toEqual(['math']);
  });

  test('without a pet name no names op comes along', async () => {
    const grant = await decideGrant(['math'], held());
    expect(namesOf(grant.schemas)).toEqual(['math']);
  });

  test('a pet name is asked of the parent as its path', async () => {
    const asked: string[][] = [];
    const grant = await decideGrant(
      ['things/list'],
      held({
        hasPath: async path => {
          asked.push([...path]);
          return true;
        },
      }),
    );
    expect(asked).toEqual([['things', 'list']]);
    expect(grant.paths).toEqual([['things', 'list']]);
  });
});
