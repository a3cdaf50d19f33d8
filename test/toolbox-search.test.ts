/**
 * The toolbox's parts (docs/how-it-works.md, "The toolbox"): which tools are
 * offered and which deferred past the budget, and the search over the
 * deferred ones by name, description and parameters, bounded and clear on
 * bad input.
 */
import { describe, expect, test } from 'vitest';
import type { ToolSchema } from '../providers/types.js';
import { planOffer } from '../src/toolbox/plan-offer.js';
import { searchTools } from '../src/toolbox/search-tools.js';
import { readToolboxSettings } from '../src/settings/toolbox-settings.js';
import { toolboxTools } from '../sim/toolbox-tools.js';

const schema = (name: string, description = `The ${name} tool.`, properties = {}): ToolSchema => ({
  type: 'function',
  function: { name, description, parameters: { type: 'object', properties } },
});
const names = (schemas: readonly ToolSchema[]) => schemas.map(each => each.function.name);
const toolbox = (count: number) =>
  toolboxTools(count).map(({ name, description }) =>
    schema(name, description, { title: { type: 'string', description: 'what it is called' } }),
  );

describe('planOffer', () => {
  test('within the budget every tool is offered, as before', () => {
    const plan = planOffer([schema('a'), schema('b')], {
      budgetTokens: 1_000,
      always: new Set(),
      recent: [],
    });
    expect(names(plan.direct)).toEqual(['a', 'b']);
    expect(plan.deferred).toEqual([]);
  });

  test('past it, only the always-offered and those used lately that fit; in the toolbox order', () => {
    const tools = toolbox(40);
    // Room for two and a half of these schemas (three characters a token, as the estimate counts).
    const each = Math.ceil(JSON.stringify(tools[0]).length / 3);
    const plan = planOffer(tools, {
      budgetTokens: Math.floor(each * 2.5),
      always: new Set(['mail_list_item']),
      recent: ['calendar_create_item', 'repo_create_item', 'files_create_item'],
    });
    expect(names(plan.direct)).toEqual(['calendar_create_item', 'mail_list_item']);
    expect(plan.deferred).toHaveLength(38);
    expect(names(plan.deferred)).not.toContain('mail_list_item');
  });
});

describe('planOffer at its bounds', () => {
  const a = schema('a');
  const b = schema('b');
  const c = schema('c');
  const tokens = Math.ceil(JSON.stringify(a).length / 3);

  test('tools that fill the budget exactly are all offered', () => {
    const plan = planOffer([a, b], { budgetTokens: 2 * tokens, always: new Set(), recent: [] });
    expect(names(plan.direct)).toEqual(['a', 'b']);
  });

  test('a name always offered or used lately that is not a tool is passed over', () => {
    const plan = planOffer([a, b, c], {
      budgetTokens: 2 * tokens,
      always: new Set(['gone']),
      recent: ['missing', 'b'],
    });
    expect(names(plan.direct)).toEqual(['b']);
    expect(names(plan.deferred)).toEqual(['a', 'c']);
  });

  test('one both always offered and used lately is counted once, and one that fits exactly is offered', () => {
    const plan = planOffer([a, b, c], {
      budgetTokens: 2 * tokens,
      always: new Set(['a']),
      recent: ['a', 'b', 'c'],
    });
    expect(names(plan.direct)).toEqual(['a', 'b']);
    expect(names(plan.deferred)).toEqual(['c']);
  });
});

describe('searchTools', () => {
  const tools = toolbox(121);

  test('finds by what the description says, not only the name', () => {
    const result = searchTools(tools, 'schedule a meeting');
    expect(result.of).toBe(121);
    expect(result.found.length).toBeGreaterThan(0);
    expect(result.found[0]!.description).toMatch(/meeting in the calendar/);
    expect(result.found[0]!.parameters).toEqual({
      type: 'object',
      properties: { title: { type: 'string', description: 'what it is called' } },
    });
  });

  test('the name counts: a query naming the verb and thing ranks that tool first', () => {
    expect(searchTools(tools, 'delete bug ticket').found[0]!.name).toBe('tickets_delete_item');
    expect(searchTools(tools, 'create pull request').found[0]!.name).toBe('repo_create_item');
  });

  test('at most five, and a parameter description is searched too', () => {
    expect(searchTools(tools, 'create').found).toHaveLength(5);
    expect(
      searchTools(
        [
          schema('namer', 'Names things.', {
            moniker: { type: 'string', description: 'the nickname wanted' },
          }),
        ],
        'nickname',
      ).found,
    ).toHaveLength(1);
  });

  test('bad queries: empty is refused with an example; another language finds nothing, clearly; a huge one is cut and says so', () => {
    expect(() => searchTools(tools, '   ')).toThrow(
      'find needs words saying what the tool should do, e.g. "create a calendar event"',
    );
    expect(searchTools(tools, 'カレンダーに予定を入れて')).toEqual({ found: [], of: 121 });
    const huge = searchTools(
      tools,
      Array.from({ length: 3_000 }, (_, index) => `word${index}`).join(' '),
    );
    expect(huge.cut).toBe('only the first 24 words of the query were searched');
    expect(huge.found).toEqual([]);
  });

  test('names are read as words: camelCase and a digit before a capital split', () => {
    const named = [schema('createInvoice'), schema('v2Export'), schema('other')];
    expect(searchTools(named, 'invoice').found.map(each => each.name)).toEqual(['createInvoice']);
    expect(searchTools(named, 'export').found.map(each => each.name)).toEqual(['v2Export']);
    // A lower-case letter after a lower-case one does not split a word.
    expect(searchTools(named, 'nvoice').found).toEqual([]);
  });

  test("each parameter's words stay apart from the next parameter's", () => {
    const tool = schema('lister', 'Lists.', {
      first: { type: 'string', description: 'an alpha' },
      second: { type: 'string', description: 'a beta' },
      third: { type: 'string' },
    });
    expect(searchTools([tool], 'alpha').found).toHaveLength(1);
    expect(searchTools([tool], 'second').found).toHaveLength(1);
    expect(searchTools([tool], 'third').found).toHaveLength(1);
  });

  test('a query is cut past 1,000 characters or 24 words, and says so only then', () => {
    const named = [schema('createInvoice')];
    const exactly = (count: number) =>
      Array.from({ length: count }, (_, index) => `invoice${index}`).join(' ');
    expect(searchTools(named, exactly(24))).not.toHaveProperty('cut');
    expect(searchTools(named, exactly(25)).cut).toBe(
      'only the first 24 words of the query were searched',
    );
    const long = 'x'.repeat(1_000);
    expect(searchTools(named, long)).not.toHaveProperty('cut');
    // Past the first 1,000 characters nothing is read: "invoice" there is not searched.
    const past = searchTools(named, `${long} invoice`);
    expect(past.cut).toMatch(/^only the first \d+ words of the query were searched$/);
    expect(past.found).toEqual([]);
  });

  test('5,000 tools are searched (time is the bench’s)', () => {
    const many = toolbox(5_000);
    expect(searchTools(many, 'archive spreadsheet').found[0]!.name).toMatch(/^files_archive_item/);
  });
});

describe('settings', () => {
  test('LAL_TOOL_BUDGET_TOKENS and LAL_TOOLS_ALWAYS', () => {
    const problems: string[] = [];
    expect(readToolboxSettings({}, problems)).toEqual({ budgetTokens: 1_500, always: new Set() });
    expect(
      readToolboxSettings({ LAL_TOOL_BUDGET_TOKENS: '400', LAL_TOOLS_ALWAYS: 'a, b,,' }, problems),
    ).toEqual({ budgetTokens: 400, always: new Set(['a', 'b']) });
    expect(problems).toEqual([]);
    readToolboxSettings({ LAL_TOOL_BUDGET_TOKENS: 'lots' }, problems);
    expect(problems).toEqual([
      'LAL_TOOL_BUDGET_TOKENS must be a positive whole number, got "lots"; using 1500.',
    ]);
  });
});
