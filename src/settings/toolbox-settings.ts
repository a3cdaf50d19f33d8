/**
 * The toolbox's settings (docs/configuration.md): how many tokens of tool
 * schemas are offered before the rest are deferred behind the `toolbox`
 * search (LAL_TOOL_BUDGET_TOKENS), and the tools always offered whatever
 * the budget (LAL_TOOLS_ALWAYS, as Claude Code's `alwaysLoad`).
 */
import type { Env } from '../../providers/types.js';
import { readPositiveInteger } from './read-positive-integer.js';

export interface ToolboxSettings {
  /** Tokens of the tools' schemas (three characters a token) offered before deferring. */
  budgetTokens: number;
  /** Names always offered directly. */
  always: ReadonlySet<string>;
}

/** About ten ordinary tools: a Fae with a handful is offered them as before. */
const DEFAULT_TOOL_BUDGET_TOKENS = 1_500;

export const readToolboxSettings = (env: Env, problems: string[]): ToolboxSettings =>
  harden({
    budgetTokens: readPositiveInteger(
      env,
      'LAL_TOOL_BUDGET_TOKENS',
      DEFAULT_TOOL_BUDGET_TOKENS,
      problems,
    ),
    always: new Set(
      (env.LAL_TOOLS_ALWAYS ?? '')
        .split(',')
        .map(name => name.trim())
        .filter(name => name !== ''),
    ),
  });
harden(readToolboxSettings);
