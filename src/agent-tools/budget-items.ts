/**
 * A helper's budget as people write one, among the names of its grant
 * (behaviour 7.9): "5 calls", "2000 tokens", a time ("90s", "2m"), and
 * "model <name>". Told apart here once: the helper reads its budget from
 * them (src/helpers/helper-budget.ts), and the policy, which judges every
 * path a call gives (src/policy/call-paths.ts), looks none of them up as a
 * pet name (the older daemon refuses a name with a space, and its CapTP
 * writes each refused call into the agent's log: docs/daemon-guide.md, "Helpers").
 */
import { readDuration } from '../settings/durations.js';

// Neither global nor sticky: matching never writes lastIndex, so they can be frozen.
export const CALLS = /^(\d+)\s*(?:model\s+)?calls?$/;
harden(CALLS);
export const TOKENS = /^(\d+)\s*tokens?$/;
harden(TOKENS);
export const MODEL = /^model\s+(\S+)$/;
harden(MODEL);

/** Whether a grant's entry is a budget item rather than a tool or pet name (a pet name has no space, and is not a time). */
export const isBudgetItem = (item: string): boolean => {
  const lower = item.trim().toLowerCase();
  return (
    CALLS.test(lower) ||
    TOKENS.test(lower) ||
    MODEL.test(item.trim()) ||
    readDuration(lower) !== undefined
  );
};
harden(isBudgetItem);
