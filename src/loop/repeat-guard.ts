/**
 * The repeated-call guard: the same tool with the same arguments, counted
 * per turn, gets graduated verdicts: allow, then warn the model, then refuse
 * to run it, then end the turn.
 */
import type { AgentLimits } from '../config.js';

export type RepeatVerdict = 'allow' | 'warn' | 'refuse' | 'stop';

export interface RepeatGuard {
  check(name: string, rawArguments: string): { verdict: RepeatVerdict; count: number };
}

/** Same arguments written with other spacing or key order count as the same call. */
const canonical = (rawArguments: string): string => {
  try {
    const sortKeys = (value: unknown): unknown => {
      if (Array.isArray(value)) return value.map(sortKeys);
      if (value !== null && typeof value === 'object') {
        return Object.fromEntries(
          Object.keys(value)
            .sort()
            .map(key => [key, sortKeys((value as Record<string, unknown>)[key])]),
        );
      }
      return value;
    };
    return JSON.stringify(sortKeys(JSON.parse(rawArguments)));
  } catch {
    return rawArguments.trim();
  }
};

export const makeRepeatGuard = (
  limits: Pick<AgentLimits, 'repeatWarnAt' | 'repeatRefuseAt' | 'repeatStopAt'>,
): RepeatGuard => {
  const counts = new Map<string, number>();
  return {
    check(name, rawArguments) {
      const key = `${name}\u0000${canonical(rawArguments)}`;
      const count = (counts.get(key) ?? 0) + 1;
      counts.set(key, count);
      if (count >= limits.repeatStopAt) return { verdict: 'stop', count };
      if (count >= limits.repeatRefuseAt) return { verdict: 'refuse', count };
      if (count >= limits.repeatWarnAt) return { verdict: 'warn', count };
      return { verdict: 'allow', count };
    },
  };
};
