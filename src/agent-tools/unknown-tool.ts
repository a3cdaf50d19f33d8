/**
 * What the model is told of a call to a tool it does not hold: the tools its request offered
 * (never one the policy withholds) and the nearest of them. One wording for the two places
 * that find a name unknown: the policy's seam, before anything would ask the HOST about it
 * (src/policy/guard-tool-call.ts), and the call's run (src/builtin-tools/execute-tool.ts).
 */
import { closestNames } from '../../providers/closest-names.js';
import { quoteNames } from '../encoding/quote-names.js';

export const unknownToolText = (name: string, offered: readonly string[]): string => {
  const near = closestNames(name, offered);
  const nearest = near.length === 0 ? '' : `; the nearest to "${name}": ${quoteNames(near)}`;
  return `Unknown tool "${name}". The tools you have are: ${offered.join(', ')}${nearest}`;
};
harden(unknownToolText);
