/**
 * A positive whole number from the environment, for the agent's limits and
 * budgets. A bad value is a problem told to the HOST, never a crash: the
 * default holds instead (or, with none, no limit).
 */
import type { Env } from '../../providers/types.js';

/** `least`: the smallest value that works (a budget under it could not hold what it must). */
export const readPositiveInteger = <Fallback extends number | undefined>(
  env: Env,
  name: string,
  fallback: Fallback,
  problems: string[],
  least = 1,
): number | Fallback => {
  const raw = env[name];
  if (raw === undefined || raw.trim() === '') return fallback;
  const value = Number(raw);
  const instead = fallback === undefined ? 'no limit is applied' : `using ${fallback}`;
  if (!Number.isInteger(value) || value <= 0) {
    problems.push(`${name} must be a positive whole number, got "${raw}"; ${instead}.`);
    return fallback;
  }
  if (value < least) {
    problems.push(`${name} must be a whole number of at least ${least}, got "${raw}"; ${instead}.`);
    return fallback;
  }
  return value;
};
harden(readPositiveInteger);
