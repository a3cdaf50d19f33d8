/**
 * The hourly budgets' settings (LAL_MAX_CALLS_PER_HOUR, LAL_MAX_TOKENS_PER_HOUR), none by
 * default; src/usage/hourly-quota.ts counts the last hour's calls against them.
 */
import type { Env } from '../../providers/types.js';
import { readPositiveInteger } from './read-positive-integer.js';

export interface HourlyQuota {
  maxCalls: number | undefined;
  maxTokens: number | undefined;
}

export const readHourlyQuota = (env: Env, problems: string[]): HourlyQuota => ({
  maxCalls: readPositiveInteger(env, 'LAL_MAX_CALLS_PER_HOUR', undefined, problems),
  maxTokens: readPositiveInteger(env, 'LAL_MAX_TOKENS_PER_HOUR', undefined, problems),
});
harden(readHourlyQuota);
