/**
 * Keeps the tools offered up to date without making the sender wait: the
 * first check (nothing known yet) comes before the first turn; after that,
 * tools/ is checked after each turn, beside the dismissal and the memory
 * write, and before each turn too while it holds a tool source (an MCP
 * bridge, tool-sources.ts), whose tools change without tools/ changing. adoptTool brings in a tool at once itself.
 */
import type { Log } from '../log.js';
import type { ToolRegistry } from '../tools/fae-tool-registry.js';
import { describeError } from '../../providers/describe-error.js';

export interface ToolsFreshness {
  /** Before a turn: checks tools/ only if it was never read. */
  beforeTurn(): Promise<void>;
  /** After a turn: checks tools/ again. */
  afterTurn(): Promise<void>;
}

export const makeToolsFreshness = (tools: ToolRegistry, log: Log): ToolsFreshness => {
  let known = false;
  const check = async (): Promise<void> => {
    try {
      await tools.refresh();
      known = true;
    } catch (error) {
      log(`could not check tools/: ${describeError(error)}`);
    }
  };
  return {
    // A tool source (an MCP bridge) may have changed its tools since: asked before every turn.
    beforeTurn: () => (known && !tools.hasSources() ? Promise.resolve() : check()),
    afterTurn: check,
  };
};
