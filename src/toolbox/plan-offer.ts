/**
 * Which of the dynamic tools are offered directly and which are deferred
 * behind the `toolbox` search. While all their schemas fit the budget
 * (LAL_TOOL_BUDGET_TOKENS) every one is offered, as before. Past it, only
 * those the HOST marked always offered (LAL_TOOLS_ALWAYS) and those used
 * lately, as many as fit, are offered; the rest wait in the toolbox. The
 * set changes only between turns, so a request's beginning — what a prompt
 * cache reuses — stays the same while the model finds and uses tools.
 */
import type { ToolSchema } from '../../providers/types.js';
import { CHARS_PER_TOKEN } from '../history/estimate-tokens.js';

export interface OfferPlan {
  direct: ToolSchema[];
  deferred: ToolSchema[];
}

const tokensOf = (schema: ToolSchema): number =>
  Math.ceil(JSON.stringify(schema).length / CHARS_PER_TOKEN);

export const planOffer = (
  schemas: readonly ToolSchema[],
  options: {
    budgetTokens: number;
    always: ReadonlySet<string>;
    /** Names used lately, the latest first. */
    recent: readonly string[];
  },
): OfferPlan => {
  const total = schemas.reduce((sum, schema) => sum + tokensOf(schema), 0);
  if (total <= options.budgetTokens) return { direct: [...schemas], deferred: [] };
  const byName = new Map(schemas.map(schema => [schema.function.name, schema]));
  const chosen = new Set<string>();
  let spent = 0;
  for (const name of options.always) {
    const schema = byName.get(name);
    if (schema === undefined) continue;
    chosen.add(name);
    spent += tokensOf(schema);
  }
  for (const name of options.recent) {
    const schema = byName.get(name);
    if (schema === undefined || chosen.has(name)) continue;
    const tokens = tokensOf(schema);
    if (spent + tokens > options.budgetTokens) continue;
    chosen.add(name);
    spent += tokens;
  }
  // In the toolbox's order, so the offered list does not reshuffle when one more is used.
  return {
    direct: schemas.filter(schema => chosen.has(schema.function.name)),
    deferred: schemas.filter(schema => !chosen.has(schema.function.name)),
  };
};
harden(planOffer);
