/**
 * The repeated-call guard: the same tool with the same arguments, counted
 * per turn, gets graduated verdicts: allow, then warn the model, then refuse
 * to run it, then end the turn. Calls are compared by the key of their
 * decoding (src/agent-tools/decode-call.ts), so arguments written with other
 * spacing, key order or encoding count as the same call.
 */
import type { AgentLimits } from '../config/config.js';

type RepeatVerdict = 'allow' | 'warn' | 'refuse' | 'stop';

export interface RepeatGuard {
  check(callKey: string): { verdict: RepeatVerdict; count: number };
}

export const makeRepeatGuard = (
  limits: Pick<AgentLimits, 'repeatWarnAt' | 'repeatRefuseAt' | 'repeatStopAt'>,
): RepeatGuard => {
  const counts = new Map<string, number>();
  return {
    check(callKey) {
      const count = (counts.get(callKey) ?? 0) + 1;
      counts.set(callKey, count);
      if (count >= limits.repeatStopAt) return { verdict: 'stop', count };
      if (count >= limits.repeatRefuseAt) return { verdict: 'refuse', count };
      if (count >= limits.repeatWarnAt) return { verdict: 'warn', count };
      return { verdict: 'allow', count };
    },
  };
};
harden(makeRepeatGuard);
