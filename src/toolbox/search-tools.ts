/**
 * The toolbox's search: the deferred tools ranked by BM25 (the ranking
 * recall uses) over their names, descriptions and parameter names and
 * descriptions, so a tool is found by what its description says, not only
 * by its name. A query is bounded in words; the best few come back with
 * their schemas, so the model can call one at once.
 */
import type { ToolSchema } from '../../providers/types.js';
import { makeBm25 } from '../recall/rank-bm25.js';
import { queryWords, wordsOf } from '../recall/search-words.js';

/** Words of a query beyond these are not searched (and the result says so). */
const MAX_QUERY_WORDS = 24;
const MAX_QUERY_CHARS = 1_000;
/** Found tools returned at most. */
const FOUND_AT_MOST = 5;

/** camelCase and snake_case names split into words. */
const spaced = (name: string): string => name.replace(/([a-z0-9])([A-Z])/g, '$1 $2');

// Each schema's words once: a toolbox of thousands is searched without reading them again.
const wordsOfTool = new WeakMap<ToolSchema, string[]>();
const toolWords = (schema: ToolSchema): string[] => {
  let words = wordsOfTool.get(schema);
  if (words === undefined) {
    const { name, description, parameters } = schema.function;
    const parameterText = Object.entries(parameters.properties ?? {})
      .map(([parameter, each]) => `${spaced(parameter)} ${each.description ?? ''}`)
      .join(' ');
    // The name counts twice: a tool named for the thing asked is the likeliest.
    words = wordsOf(`${spaced(name)} ${spaced(name)} ${description} ${parameterText}`);
    wordsOfTool.set(schema, words);
  }
  return words;
};

export interface ToolSearch {
  found: { name: string; description: string; parameters: ToolSchema['function']['parameters'] }[];
  /** How many tools were searched. */
  of: number;
  /** Said when the query was cut. */
  cut?: string;
}

export const searchTools = (schemas: readonly ToolSchema[], query: string): ToolSearch => {
  const text = query.trim();
  if (text === '')
    throw new Error(
      'find needs words saying what the tool should do, e.g. "create a calendar event"',
    );
  const all = queryWords(text.slice(0, MAX_QUERY_CHARS));
  const terms = all.slice(0, MAX_QUERY_WORDS);
  const bm25 = makeBm25<ToolSchema>(terms);
  for (const schema of schemas) bm25.see(toolWords(schema), schema);
  const found = bm25.top(FOUND_AT_MOST).map(({ ref }) => ({
    name: ref.function.name,
    description: ref.function.description,
    parameters: ref.function.parameters,
  }));
  const cut =
    text.length > MAX_QUERY_CHARS || all.length > MAX_QUERY_WORDS
      ? `only the first ${terms.length} words of the query were searched`
      : undefined;
  return harden({ found, of: schemas.length, ...(cut === undefined ? {} : { cut }) });
};
harden(searchTools);
