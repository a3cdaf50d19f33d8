/**
 * What the model may give a helper besides its task and powers (behaviour
 * 7.9): a budget written as people write one, among the names of its grant
 * (one schema parameter fewer on every request): "5 calls", "2000 tokens",
 * a time ("90s", "2m"), and "model <name>" for another of the models the
 * agent may use. Left out, a helper has the agent's limit of model calls per
 * turn and LAL_HELPER_SECONDS; asked for more, it gets that much and is told so.
 */
import { readDuration } from '../settings/durations.js';
import { CALLS, MODEL, TOKENS } from '../agent-tools/budget-items.js';

export interface HelperBudget {
  modelCalls: number;
  /** Input and output tokens together, across its calls; no bound when absent. */
  tokens?: number;
  ms: number;
  /** Another model of the agent's chain, by name; the agent's own when absent. */
  model?: string;
  /** What was asked beyond the bounds and cut to them, for the model. */
  cut: string[];
}

export const readHelperBudget = (
  items: readonly string[],
  bounds: { modelCalls: number; ms: number },
): HelperBudget => {
  const budget: HelperBudget = { modelCalls: bounds.modelCalls, ms: bounds.ms, cut: [] };
  for (const item of items.map(entry => entry.trim())) {
    const lower = item.toLowerCase();
    const calls = CALLS.exec(lower);
    const tokens = TOKENS.exec(lower);
    const model = MODEL.exec(item);
    if (calls !== null) budget.modelCalls = Number(calls[1]);
    else if (tokens !== null) budget.tokens = Number(tokens[1]);
    else if (model !== null) budget.model = model[1]!;
    // What is left is a time: only budget items reach here (isBudgetItem, src/agent-tools/budget-items.ts).
    else budget.ms = readDuration(lower) ?? budget.ms;
  }
  if (budget.modelCalls < 1 || (budget.tokens !== undefined && budget.tokens < 1))
    throw new Error('budget: calls and tokens must be at least 1');
  if (budget.modelCalls > bounds.modelCalls) {
    budget.cut.push(`${budget.modelCalls} calls cut to ${bounds.modelCalls} (LAL_MAX_MODEL_CALLS)`);
    budget.modelCalls = bounds.modelCalls;
  }
  if (budget.ms > bounds.ms) {
    budget.cut.push(
      `${Math.round(budget.ms / 1000)} s cut to ${bounds.ms / 1000} s (LAL_HELPER_SECONDS)`,
    );
    budget.ms = bounds.ms;
  }
  return budget;
};
harden(readHelperBudget);
