// A helper's budget as people write one (src/agent-tools/budget-items.ts, src/helpers/helper-budget.ts) and the helpers the store
// keeps across a restart (src/helpers/helper-store.ts), docs/behaviour.md 7.9.
import { describe, expect, test } from 'vitest';
import { isBudgetItem } from '../src/agent-tools/budget-items.js';
import { readHelperBudget } from '../src/helpers/helper-budget.js';
import { emptyHelperStore, readHelperStore } from '../src/helpers/helper-store.js';

const bounds = { modelCalls: 8, ms: 120_000 };

describe("a helper's budget", () => {
  test.each([
    ['5 calls', true],
    ['1 call', true],
    ['3 model calls', true],
    ['3calls', true],
    [' 2000 Tokens ', true],
    ['1 token', true],
    ['90s', true],
    ['2m', true],
    ['model qwen3:8b', true],
    ['notes', false],
    ['calls', false],
    ['5 calls please', false],
    ['model', false],
    ['model two words', false],
    ['readFile', false],
    // Spaces around and within an item are as people type them.
    ['  model qwen3  ', true],
    ['model  qwen3', true],
    ['5 model  calls', true],
    ['2000tokens', true],
    // A pet name that ends like an item, or an item with more after it, is not one.
    ['v2calls', false],
    ['v2tokens', false],
    ['5 tokenses', false],
    ['my model qwen3', false],
  ])('%j is a budget item: %s', (item, expected) => {
    expect(isBudgetItem(item)).toBe(expected);
  });

  test('left out, the agent’s bounds; each item read as written', () => {
    expect(readHelperBudget([], bounds)).toEqual({ modelCalls: 8, ms: 120_000, cut: [] });
    expect(readHelperBudget([' 3 calls ', '2000 tokens', '90s', 'model Qwen3:8B'], bounds)).toEqual(
      { modelCalls: 3, tokens: 2000, ms: 90_000, model: 'Qwen3:8B', cut: [] },
    );
    expect(readHelperBudget(['2 Model Calls', '1m'], bounds)).toEqual({
      modelCalls: 2,
      ms: 60_000,
      cut: [],
    });
  });

  test('items written with spaces of their own are read as written', () => {
    expect(readHelperBudget(['5 model  calls', 'model  qwen3'], bounds)).toMatchObject({
      modelCalls: 5,
      model: 'qwen3',
    });
  });

  test('asked for more than the bounds, it gets the bounds and is told so', () => {
    expect(readHelperBudget(['20 calls', '10m'], bounds)).toEqual({
      modelCalls: 8,
      ms: 120_000,
      cut: ['20 calls cut to 8 (LAL_MAX_MODEL_CALLS)', '600 s cut to 120 s (LAL_HELPER_SECONDS)'],
    });
    // Exactly the bounds is not a cut.
    expect(readHelperBudget(['8 calls', '2m'], bounds).cut).toEqual([]);
  });

  test('no calls or no tokens is refused', () => {
    expect(() => readHelperBudget(['0 calls'], bounds)).toThrow(
      'budget: calls and tokens must be at least 1',
    );
    expect(() => readHelperBudget(['0 tokens'], bounds)).toThrow(/at least 1/);
    expect(readHelperBudget(['1 call', '1 token'], bounds)).toMatchObject({
      modelCalls: 1,
      tokens: 1,
    });
  });
});

describe('the helpers the store keeps', () => {
  const helper = {
    id: 'h3',
    task: 'sum the notes',
    granted: ['notes', 'math'],
    origin: { number: '12', sender: 'bob' },
    startedAt: 1_000,
    depth: 1,
  };

  test('what reads is kept, what does not is counted lost, the sequence kept when it reads', () => {
    const { id: _id, ...noId } = helper;
    const { origin: _origin, ...own } = helper;
    const stored = {
      seq: 7,
      running: [
        helper,
        own,
        null,
        'h4',
        noId,
        { ...helper, task: 3 },
        { ...helper, granted: 'notes' },
        { ...helper, granted: ['notes', 4] },
        { ...helper, startedAt: '1000' },
        { ...helper, depth: undefined },
        { ...helper, origin: { number: 12, sender: 'bob' } },
        { ...helper, origin: { number: '1x', sender: 'bob' } },
        { ...helper, origin: { number: '12', sender: null } },
        { ...helper, origin: { number: 'x12', sender: 'bob' } },
        undefined,
      ],
    };
    expect(readHelperStore(stored)).toEqual({
      store: { seq: 7, running: [helper, own] },
      lost: 13,
    });
  });

  test('a new store: none running, numbered from the start', () => {
    expect(emptyHelperStore()).toStrictEqual({ seq: 0, running: [] });
  });

  test.each([null, undefined, 'text', 3])('%j reads as none', value => {
    expect(readHelperStore(value)).toEqual({ store: emptyHelperStore(), lost: 0 });
  });

  test.each([
    [{ seq: -1, running: [] }, 0],
    [{ seq: 1.5, running: [] }, 0],
    [{ seq: '4', running: [] }, 0],
    [{ seq: 0, running: [] }, 0],
    [{ seq: 4 }, 4],
  ])('a sequence of %j reads as %d', (value, seq) => {
    expect(readHelperStore(value)).toEqual({ store: { seq, running: [] }, lost: 0 });
  });
});
