/**
 * The toolbox as a module (src/toolbox/toolbox.ts, docs/how-it-works.md "The toolbox"): what a
 * request is offered and what waits behind `toolbox`, the description that names the sources, a
 * call through `toolbox` unwrapped into the tool it names (only one the policy allows), the tools
 * used lately remembered per thread and offered once a turn rewrites its beginning, and help()'s
 * line. Judged with a registry double, so each rule is asserted exactly.
 */
import { describe, expect, test } from 'vitest';
import type { ToolCall, ToolSchema } from '../providers/types.js';
import type { DynamicTool } from '../src/agent-tools/dynamic-tool.js';
import type { ToolRegistry } from '../src/agent-tools/fae-tool-registry.js';
import { makeToolbox, TOOLBOX_NAME } from '../src/toolbox/toolbox.js';

const schema = (name: string, description = `The ${name} tool.`): ToolSchema => ({
  type: 'function',
  function: { name, description, parameters: { type: 'object', properties: {} } },
});
const tokensOf = (each: ToolSchema) => Math.ceil(JSON.stringify(each).length / 3);

/** A registry of tools by source: `source` → names. */
const makeRegistry = (sources: Record<string, string[]>) => {
  const tools = new Map<string, DynamicTool>();
  for (const [petName, names] of Object.entries(sources))
    for (const name of names) {
      const each = schema(name);
      tools.set(name, {
        name,
        petName,
        schema: each,
        tool: { schema: () => each, execute: async () => name, help: () => name },
        stoppable: false,
      });
    }
  const registry = {
    refresh: async () => 'read' as const,
    schemas: () => [...tools.values()].map(tool => tool.schema),
    knownId: () => undefined,
    hasSources: () => false,
    find: (name: string) => tools.get(name),
    refusal: () => undefined,
    refused: () => [],
    offeredBy: () => [],
  } satisfies ToolRegistry;
  return registry;
};

const all = (schemas: readonly ToolSchema[]) => [...schemas];
const names = (schemas: readonly ToolSchema[]) => schemas.map(each => each.function.name);
const call = (name: string, args: unknown): ToolCall => ({
  id: 'c1',
  name,
  arguments: typeof args === 'string' ? args : JSON.stringify(args),
});

/** Room for `count` of these tools' schemas (they are all about the same size). */
const budgetFor = (count: number) => ({
  budgetTokens: count * tokensOf(schema('tool-00')) + 1,
  always: new Set<string>(),
});

const tenTools = Array.from({ length: 10 }, (_, index) => `tool-${String(index).padStart(2, '0')}`);

describe('what a request is offered', () => {
  test('within the budget, every tool and no toolbox; help() says how many', () => {
    const toolbox = makeToolbox({
      registry: makeRegistry({ 'tools/a': ['alpha', 'beta'] }),
      settings: { budgetTokens: 10_000, always: new Set() },
    });
    expect(toolbox.describe(all)).toEqual(['2 offered directly']);
    expect(names(toolbox.offer(all))).toEqual(['alpha', 'beta']);
    expect(toolbox.registry.find(TOOLBOX_NAME)).toBeUndefined();
    expect(toolbox.describe(all)).toEqual(['2 offered directly']);
    expect(toolbox.describe(() => [])).toEqual([]);
  });

  test('past it, the toolbox last, describing its sources, the largest first, and some of their tools', () => {
    // The smaller sources first: the description names the largest first, whatever the order.
    const sources: Record<string, string[]> = {};
    for (let index = 0; index < 5; index += 1) sources[`extra-${index}`] = [`x${index}`];
    Object.assign(sources, { small: ['solo'], mid: ['m1', 'm2'], big: tenTools.slice(0, 5) });
    const toolbox = makeToolbox({
      registry: makeRegistry(sources),
      settings: { budgetTokens: 1, always: new Set(['solo']) },
    });
    // Before any turn help() plans the offer itself.
    expect(toolbox.describe(all)).toEqual([
      `1 offered directly, 12 deferred behind ${TOOLBOX_NAME} (LAL_TOOL_BUDGET_TOKENS 1)`,
    ]);
    const offered = toolbox.offer(all);
    expect(names(offered)).toEqual(['solo', TOOLBOX_NAME]);
    const description = offered.at(-1)!.function.description;
    expect(description).toBe(
      'Finds and calls the 12 tools not offered here: find (words for what it does) returns the best with their parameters; use (its name) with arguments calls one. ' +
        'Sources: big (5: tool-00, tool-01, tool-02, …); mid (2: m1, m2); extra-0 (1: x0); extra-1 (1: x1); extra-2 (1: x2); extra-3 (1: x3), and 1 more.',
    );
    expect(offered.at(-1)).toEqual({
      type: 'function',
      function: {
        name: TOOLBOX_NAME,
        description,
        parameters: {
          type: 'object',
          properties: {
            find: { type: 'string' },
            use: { type: 'string' },
            arguments: { type: 'object' },
          },
        },
      },
    });
    expect(toolbox.registry.find(TOOLBOX_NAME)!.tool.schema()).toBe(offered.at(-1));
    expect(toolbox.registry.find(TOOLBOX_NAME)?.schema).toBe(offered.at(-1));
    expect(toolbox.registry.find('m1')?.petName).toBe('mid');
    // The same deferred set: the same toolbox schema, so a request's beginning stays the same.
    expect(toolbox.offer(all).at(-1)).toBe(offered.at(-1));
  });

  test('a source of exactly three tools lists them all, and six sources are all named', () => {
    const sources: Record<string, string[]> = { three: ['t1', 't2', 't3'] };
    for (let index = 0; index < 5; index += 1) sources[`one-${index}`] = [`o${index}`];
    const toolbox = makeToolbox({
      registry: makeRegistry(sources),
      settings: { budgetTokens: 1, always: new Set() },
    });
    expect(toolbox.offer(all).at(-1)!.function.description).toMatch(
      /Sources: three \(3: t1, t2, t3\); one-0 \(1: o0\); one-1 \(1: o1\); one-2 \(1: o2\); one-3 \(1: o3\); one-4 \(1: o4\)\.$/,
    );
  });

  test('only what the policy allows is offered, deferred or found', async () => {
    const toolbox = makeToolbox({
      registry: makeRegistry({ src: ['open', 'shut', 'secret'] }),
      settings: { budgetTokens: 1, always: new Set() },
    });
    const policy = (schemas: readonly ToolSchema[]) =>
      schemas.filter(each => each.function.name !== 'secret');
    toolbox.offer(policy);
    const entry = toolbox.registry.find(TOOLBOX_NAME)!;
    const found = (await entry.tool.execute({ find: 'secret open shut tool' })) as {
      found: { name: string }[];
      of: number;
    };
    expect(found.of).toBe(2);
    expect(found.found.map(each => each.name).sort()).toEqual(['open', 'shut']);
    // A call naming the denied tool through the toolbox stays a toolbox call, which finds none.
    const denied = call(TOOLBOX_NAME, { use: 'secret', arguments: {} });
    expect(toolbox.unwrap(denied)).toBe(denied);
    await expect(entry.tool.execute({ use: 'secret' })).rejects.toThrow(
      'No tool "secret" in the toolbox. Find one first: toolbox {find: "what it should do"}',
    );
    await expect(entry.tool.execute({ use: 'opne' })).rejects.toThrow(
      'No tool "opne" in the toolbox; the nearest: open. Find one first: toolbox {find: "what it should do"}',
    );
    await expect(entry.tool.execute({ use: 'zzzzzzzz' })).rejects.toThrow(
      'No tool "zzzzzzzz" in the toolbox. Find one first: toolbox {find: "what it should do"}',
    );
    await expect(entry.tool.execute({})).rejects.toThrow(
      'Give find (words for what the tool should do) or use (a tool found)',
    );
    await expect(entry.tool.execute({ use: '  ', find: 'open' })).resolves.toMatchObject({ of: 2 });
    expect(entry.tool.help()).toBe(entry.schema.function.description);
    expect(entry.petName).toBe('(the agent)');
  });
});

/**
 * A toolbox of ten tools, three offered a turn, where the HOST's thread used tool-01 and then
 * mallory's used tool-09; mallory's next turn is offered tool-09 (its own, used lately), checked.
 */
const hostThenMalloryUsedOne = () => {
  const toolbox = makeToolbox({
    registry: makeRegistry({ src: tenTools }),
    settings: budgetFor(3),
  });
  toolbox.beginTurn(undefined, true);
  toolbox.offer(all);
  toolbox.unwrap(call('tool-01', {}));
  toolbox.beginTurn('mallory', true);
  toolbox.offer(all);
  toolbox.unwrap(call('tool-09', {}));
  toolbox.beginTurn('mallory', true);
  expect(names(toolbox.offer(all))).toEqual(['tool-09', TOOLBOX_NAME]);
  return toolbox;
};

describe('what help() and tools() say is behind the toolbox', () => {
  // Issue 45 (trial 15): `/attach toolbox` after a turn, then `/tools`, listed the 120 as offered
  // one by one, the last turn's plan; the next turn defers them. What is told is the next turn's.
  test('after a turn, tools added since are told as the next turn will offer them, not as the last did', () => {
    let current = makeRegistry({ 'tools/math': ['math'] });
    const registry: ToolRegistry = {
      ...current,
      schemas: () => current.schemas(),
      find: (name: string) => current.find(name),
    };
    const toolbox = makeToolbox({ registry, settings: budgetFor(3) });
    toolbox.beginTurn(undefined, false);
    expect(names(toolbox.offer(all))).toEqual(['math']);
    current = makeRegistry({ 'tools/math': ['math'], big: tenTools });
    expect(toolbox.deferredNames(all)).toEqual(['math', ...tenTools]);
    expect(toolbox.describe(all)).toEqual([
      `0 offered directly, 11 deferred behind ${TOOLBOX_NAME} (LAL_TOOL_BUDGET_TOKENS ${budgetFor(3).budgetTokens})`,
    ]);
    toolbox.beginTurn(undefined, false);
    expect(names(toolbox.offer(all))).toEqual([TOOLBOX_NAME]);
    expect(toolbox.deferredNames(all)).toEqual(['math', ...tenTools]);
  });

  test("the HOST is told its own thread's next offer, not the tools a peer's turn used lately", () => {
    const toolbox = hostThenMalloryUsedOne();
    // The HOST's thread keeps what its requests offered (none used lately yet): all ten behind.
    expect(toolbox.deferredNames(all)).toEqual(tenTools);
  });
});

describe('a call through the toolbox', () => {
  const made = () => {
    const toolbox = makeToolbox({
      registry: makeRegistry({ src: tenTools }),
      settings: budgetFor(2),
    });
    toolbox.beginTurn(undefined, true);
    toolbox.offer(all);
    return toolbox;
  };

  test('is the call of the tool it names, with its arguments as text', () => {
    const toolbox = made();
    expect(toolbox.unwrap(call(TOOLBOX_NAME, { use: ' tool-03 ', arguments: { a: 1 } }))).toEqual({
      id: 'c1',
      name: 'tool-03',
      arguments: '{"a":1}',
    });
    expect(toolbox.unwrap(call(TOOLBOX_NAME, { use: 'tool-04', arguments: '{"b":2}' }))).toEqual({
      id: 'c1',
      name: 'tool-04',
      arguments: '{"b":2}',
    });
    expect(toolbox.unwrap(call(TOOLBOX_NAME, { use: 'tool-05' })).arguments).toBe('{}');
  });

  test.each([
    ['not JSON', '{use: tool-03'],
    ['not an object', '["tool-03"]'],
    ['null', 'null'],
    ['no use', { find: 'x' }],
    ['use not text', { use: 3 }],
    ['an unknown tool', { use: 'nope' }],
  ])('%s: left as the toolbox call', (_what, args) => {
    const toolbox = made();
    const asked = call(TOOLBOX_NAME, args);
    expect(toolbox.unwrap(asked)).toBe(asked);
  });
});

describe('the tools used lately, per thread', () => {
  test('a tool used is offered directly once the thread rewrites its beginning, not before', () => {
    const toolbox = makeToolbox({
      registry: makeRegistry({ src: tenTools }),
      settings: budgetFor(3),
    });
    toolbox.beginTurn(undefined, false);
    expect(names(toolbox.offer(all))).toEqual([TOOLBOX_NAME]);
    toolbox.unwrap(call(TOOLBOX_NAME, { use: 'tool-07' }));
    toolbox.unwrap(call('tool-02', {}));
    // Not a tool of the registry: nothing remembered.
    toolbox.unwrap(call('reply', {}));
    toolbox.beginTurn(undefined, false);
    expect(names(toolbox.offer(all))).toEqual([TOOLBOX_NAME]);
    toolbox.beginTurn(undefined, true);
    expect(names(toolbox.offer(all))).toEqual(['tool-02', 'tool-07', TOOLBOX_NAME]);
    // The set stays while the beginning is kept.
    toolbox.beginTurn(undefined, false);
    expect(names(toolbox.offer(all))).toEqual(['tool-02', 'tool-07', TOOLBOX_NAME]);
    expect(toolbox.describe(all)).toEqual([
      `2 offered directly, 8 deferred behind ${TOOLBOX_NAME} (LAL_TOOL_BUDGET_TOKENS ${budgetFor(3).budgetTokens})`,
    ]);
  });

  test("a peer's thread is not offered the HOST's tools used lately, nor the HOST the peer's", () => {
    const toolbox = hostThenMalloryUsedOne();
    toolbox.beginTurn(undefined, true);
    expect(names(toolbox.offer(all))).toEqual(['tool-01', TOOLBOX_NAME]);
  });

  test('at most 16 are remembered per thread, the latest first; used again, one moves to the front', () => {
    const many = Array.from({ length: 20 }, (_, index) => `t${String(index).padStart(2, '0')}`);
    const used = (room: number) => {
      const toolbox = makeToolbox({
        registry: makeRegistry({ src: many }),
        settings: budgetFor(room),
      });
      toolbox.beginTurn(undefined, true);
      toolbox.offer(all);
      for (const name of many) toolbox.unwrap(call(name, {}));
      toolbox.unwrap(call('t05', {}));
      toolbox.beginTurn(undefined, true);
      return names(toolbox.offer(all));
    };
    // Room for 18 of the 20: the 16 used latest (t04 … t19), in the toolbox's order.
    expect(used(18)).toEqual([...many.slice(4), TOOLBOX_NAME]);
    // Room for one: the one used last.
    expect(used(1)).toEqual(['t05', TOOLBOX_NAME]);
    // Room for two: it, and the one used before it.
    expect(used(2)).toEqual(['t05', 't19', TOOLBOX_NAME]);
  });

  test('at most 64 threads are remembered, the one whose tools were used longest ago forgotten first', () => {
    const toolbox = makeToolbox({
      registry: makeRegistry({ src: tenTools }),
      settings: budgetFor(3),
    });
    toolbox.beginTurn('first', true);
    toolbox.offer(all);
    toolbox.unwrap(call('tool-03', {}));
    const serve = (from: number, to: number) => {
      for (let index = from; index < to; index += 1) {
        toolbox.beginTurn(`peer-${index}`, true);
        toolbox.unwrap(call('tool-04', {}));
      }
    };
    // Sixty-four threads in all: the first is still remembered.
    serve(0, 63);
    toolbox.beginTurn('first', true);
    expect(names(toolbox.offer(all))).toEqual(['tool-03', TOOLBOX_NAME]);
    // A sixty-fifth: the one whose tools were remembered longest ago (the first's) is forgotten.
    serve(63, 64);
    toolbox.beginTurn('first', true);
    expect(names(toolbox.offer(all))).toEqual([TOOLBOX_NAME]);
    toolbox.beginTurn('peer-0', true);
    expect(names(toolbox.offer(all))).toEqual(['tool-04', TOOLBOX_NAME]);
  });
});
