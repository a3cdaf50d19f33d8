/**
 * The agent's configuration read from its environment, by the settings
 * table (settings.ts). A bad value is a problem told to the HOST, never a
 * crash: the default holds instead.
 */
import type { Env } from '../../providers/types.js';
import { toolPolicyProblems } from '../settings/tool-policy-settings.js';
import { FLAG_EXPECTED, readFlag } from '../../providers/read-flag.js';
import { readPositiveInteger } from '../settings/read-positive-integer.js';
import { readHourlyQuota, type HourlyQuota } from '../settings/hourly-quota-settings.js';
import { readScheduleSettings, type ScheduleSettings } from '../settings/schedule-settings.js';
import { readToolboxSettings, type ToolboxSettings } from '../settings/toolbox-settings.js';
import {
  FLAG_SETTINGS,
  LIMIT_SETTINGS,
  logLevelProblem,
  readAgentName,
  type AgentFlags,
  type AgentLimits,
} from '../settings/settings.js';

import { readHelperSettings, type HelperSettings } from '../settings/helper-settings.js';

// eslint-disable-next-line @endo/harden-exports -- type re-exports: the table defines them
export type { AgentLimits } from '../settings/settings.js';

export type Persona = 'lal' | 'fae';

/** The limits' defaults, from the settings table. */
export const DEFAULT_LIMITS: AgentLimits = harden(
  Object.fromEntries(
    Object.entries(LIMIT_SETTINGS).map(([key, setting]) => [key, setting.default]),
  ) as AgentLimits,
);
harden(DEFAULT_LIMITS);

/** LAL_PROGRESS_AFTER_MS: a whole number of milliseconds, 0 for at once. */
const DEFAULT_PROGRESS_AFTER_MS = 1_000;

const readProgressAfter = (env: Env, problems: string[]): number => {
  const raw = (env.LAL_PROGRESS_AFTER_MS ?? '').trim();
  if (raw === '') return DEFAULT_PROGRESS_AFTER_MS;
  const value = Number(raw);
  if (Number.isSafeInteger(value) && value >= 0) return value;
  problems.push(
    `LAL_PROGRESS_AFTER_MS must be a whole number of milliseconds (0 or more), got "${raw}"; using ${DEFAULT_PROGRESS_AFTER_MS}.`,
  );
  return DEFAULT_PROGRESS_AFTER_MS;
};

const readFlags = (env: Env, problems: string[]): AgentFlags => {
  const flags: Partial<Record<keyof AgentFlags, boolean>> = {};
  for (const [key, setting] of Object.entries(FLAG_SETTINGS)) {
    flags[key as keyof AgentFlags] = readFlag(env[setting.env], setting.default, raw => {
      problems.push(
        `${setting.env} must be ${FLAG_EXPECTED} (on/off, yes/no, true/false), got "${raw}"; using ${setting.default ? 'on' : 'off'}.`,
      );
      return setting.default;
    });
  }
  return flags as AgentFlags;
};

export interface AgentConfig {
  persona: Persona;
  limits: AgentLimits;
  /** The name its log lines and help() carry (LAL_NAME, else the persona). */
  name: string;
  /** End a turn once the sender is answered, without a last model call (LAL_STOP_AFTER_ANSWER, default on). */
  stopAfterAnswer: boolean;
  /** The newest daemon's evaluate runs without asking the HOST (LAL_DIRECT_EVAL, default off). */
  directEvaluation: boolean;
  /** Live progress on the newest daemon (LAL_PROGRESS, default on). */
  liveProgress: boolean;
  /** How long a turn runs before its live-progress placeholder is posted (LAL_PROGRESS_AFTER_MS). */
  progressAfterMs: number;
  /** Hourly budgets of model calls and tokens (LAL_MAX_CALLS_PER_HOUR, LAL_MAX_TOKENS_PER_HOUR). */
  quota: HourlyQuota;
  /** Recurring wake-ups, triggers and the heartbeat (LAL_TIME_ZONE, LAL_MIN_SCHEDULE_SECONDS, LAL_HEARTBEAT). */
  schedule: ScheduleSettings;
  /** Tools deferred behind the `toolbox` search past a budget (LAL_TOOL_BUDGET_TOKENS, LAL_TOOLS_ALWAYS). */
  toolbox: ToolboxSettings;
  /** Helper agents (LAL_MAX_HELPERS, LAL_HELPER_DEPTH, LAL_HELPER_SECONDS). */
  helpers: HelperSettings;
  /** Problems found while reading the environment, to tell the HOST. */
  problems: string[];
}

export const readAgentConfig = (env: Env): AgentConfig => {
  const problems: string[] = [];
  const rawPersona = (env.LAL_PERSONA ?? 'lal').trim().toLowerCase();
  let persona: Persona = 'lal';
  if (rawPersona === 'fae' || rawPersona === 'lal') {
    persona = rawPersona;
  } else if (rawPersona !== '') {
    problems.push(`LAL_PERSONA must be "lal" or "fae", got "${rawPersona}"; using lal.`);
  }
  const limits = { ...DEFAULT_LIMITS };
  for (const [key, setting] of Object.entries(LIMIT_SETTINGS)) {
    limits[key as keyof AgentLimits] = readPositiveInteger(
      env,
      setting.env,
      setting.default,
      problems,
      'least' in setting ? setting.least : 1,
    );
  }
  if (!(
    limits.repeatWarnAt <= limits.repeatRefuseAt && limits.repeatRefuseAt <= limits.repeatStopAt
  )) {
    problems.push(
      'The repeat guard needs LAL_REPEAT_WARN ≤ LAL_REPEAT_REFUSE ≤ LAL_REPEAT_STOP; using the defaults.',
    );
    limits.repeatWarnAt = DEFAULT_LIMITS.repeatWarnAt;
    limits.repeatRefuseAt = DEFAULT_LIMITS.repeatRefuseAt;
    limits.repeatStopAt = DEFAULT_LIMITS.repeatStopAt;
  }
  const flags = readFlags(env, problems);
  const progressAfterMs = readProgressAfter(env, problems);
  const quota = readHourlyQuota(env, problems);
  problems.push(...toolPolicyProblems(env));
  const schedule = readScheduleSettings(env, problems);
  const toolbox = readToolboxSettings(env, problems);
  const helpers = readHelperSettings(env, problems);
  const logProblem = logLevelProblem(env);
  if (logProblem !== undefined) problems.push(logProblem);
  return harden({
    persona,
    name: readAgentName(env),
    limits,
    ...flags,
    progressAfterMs,
    quota,
    schedule,
    toolbox,
    helpers,
    problems,
  });
};
harden(readAgentConfig);
