/**
 * Every default of the agent in one place, and how the environment
 * overrides them. docs/configuration.md mirrors this file.
 */
import type { Env } from '../../providers/types.js';
import { POLICY_ENV_NAMES, toolPolicyProblems } from '../policy/tool-policy.js';
import { readPositiveInteger } from './read-positive-integer.js';
import { QUOTA_ENV_NAMES, readHourlyQuota, type HourlyQuota } from '../usage/hourly-quota.js';
import { DEFAULT_CONTEXT_TOKENS } from '../../providers/config.js';
import { SCHEDULE_ENV_NAMES, readScheduleSettings } from '../schedule/schedule-settings.js';
import type { ScheduleSettings } from '../schedule/wake-ups.js';
import {
  TOOLBOX_ENV_NAMES,
  readToolboxSettings,
  type ToolboxSettings,
} from '../toolbox/toolbox-settings.js';
import {
  HELPER_ENV_NAMES,
  readHelperSettings,
  type HelperSettings,
} from '../helpers/helper-settings.js';

export type Persona = 'lal' | 'fae';

export interface AgentLimits {
  /** Model calls one turn may make before it is ended (LAL_MAX_MODEL_CALLS). */
  maxModelCalls: number;
  /** Tool calls one model reply may make; the rest are answered with an error (LAL_MAX_CALLS_PER_REPLY). */
  maxCallsPerReply: number;
  /** Same tool, same arguments: warn the model at this count (LAL_REPEAT_WARN). */
  repeatWarnAt: number;
  /** …refuse to run the call at this count (LAL_REPEAT_REFUSE). */
  repeatRefuseAt: number;
  /** …end the turn at this count (LAL_REPEAT_STOP). */
  repeatStopAt: number;
  /** A tool call that takes longer fails with a timeout (LAL_TOOL_TIMEOUT_MS). */
  toolTimeoutMs: number;
  /** A look-up or schema() call of a FaeTool that takes longer refuses the tool (LAL_TOOL_LOOKUP_TIMEOUT_MS). */
  toolLookupTimeoutMs: number;
  /** A tool result longer than this is cut, with a marker (LAL_MAX_RESULT_CHARS). */
  maxResultChars: number;
  /** Token budget for one request: system prompt, tools and history (LAL_CONTEXT_TOKENS). */
  contextTokens: number;
  /** Finished turns kept word for word before they are folded into the digest (LAL_KEEP_TURNS). */
  keepTurns: number;
  /** Characters the digest of older turns may take (LAL_DIGEST_CHARS). */
  digestChars: number;
  /** Handled message ids remembered across restarts (LAL_REMEMBER_HANDLED). */
  rememberHandled: number;
  /** Wake-ups (the `schedule` tool) that may be pending at once (LAL_MAX_WAKE_UPS). */
  maxWakeUps: number;
  /** Turns in a row for a sender that is not the HOST, without a word from the HOST, before it is held (LAL_MAX_PEER_EXCHANGES). */
  maxPeerExchanges: number;
  /** Turns for one sender (not the HOST) in any hour (LAL_MAX_TURNS_PER_SENDER_PER_HOUR). */
  maxTurnsPerSenderPerHour: number;
  /** Model replies cut by the output limit in a row before the turn ends (LAL_MAX_TRUNCATED_REPLIES). */
  maxTruncatedReplies: number;
  /** Megabytes the searchable history may take in the store; the oldest chunks go first (LAL_HISTORY_MB). */
  historyMb: number;
}

export const DEFAULT_LIMITS: AgentLimits = harden({
  maxModelCalls: 24,
  maxCallsPerReply: 16,
  repeatWarnAt: 3,
  repeatRefuseAt: 5,
  repeatStopAt: 7,
  // Above runCommand's own 120 s bound, so a long command is not cut short.
  toolTimeoutMs: 130_000,
  // Every message waits on the tools' refresh; a FaeTool that does not answer its schema() in this is refused.
  toolLookupTimeoutMs: 5_000,
  maxResultChars: 16_000,
  // Sized for a 32k-token local model, leaving room for the reply.
  contextTokens: DEFAULT_CONTEXT_TOKENS,
  // Small enough that a long conversation's request stays near its first one's size.
  keepTurns: 4,
  digestChars: 3_000,
  rememberHandled: 256,
  maxWakeUps: 16,
  // Two polite agents would thank each other for ever (AutoGen's max_consecutive_auto_reply is 10 too).
  maxPeerExchanges: 10,
  maxTurnsPerSenderPerHour: 60,
  // A cut reply is answered "retry shorter"; the third in a row means it is not working.
  maxTruncatedReplies: 3,
  // Some 20,000 ordinary exchanges (8,000 with tool calls), searched in about a second.
  historyMb: 16,
});
harden(DEFAULT_LIMITS);

const LIMIT_ENV: Record<keyof AgentLimits, string> = {
  maxModelCalls: 'LAL_MAX_MODEL_CALLS',
  maxCallsPerReply: 'LAL_MAX_CALLS_PER_REPLY',
  repeatWarnAt: 'LAL_REPEAT_WARN',
  repeatRefuseAt: 'LAL_REPEAT_REFUSE',
  repeatStopAt: 'LAL_REPEAT_STOP',
  toolTimeoutMs: 'LAL_TOOL_TIMEOUT_MS',
  toolLookupTimeoutMs: 'LAL_TOOL_LOOKUP_TIMEOUT_MS',
  maxResultChars: 'LAL_MAX_RESULT_CHARS',
  contextTokens: 'LAL_CONTEXT_TOKENS',
  keepTurns: 'LAL_KEEP_TURNS',
  digestChars: 'LAL_DIGEST_CHARS',
  rememberHandled: 'LAL_REMEMBER_HANDLED',
  maxWakeUps: 'LAL_MAX_WAKE_UPS',
  maxPeerExchanges: 'LAL_MAX_PEER_EXCHANGES',
  maxTurnsPerSenderPerHour: 'LAL_MAX_TURNS_PER_SENDER_PER_HOUR',
  maxTruncatedReplies: 'LAL_MAX_TRUNCATED_REPLIES',
  historyMb: 'LAL_HISTORY_MB',
};

/** Every variable the agent itself reads (the providers read theirs: providers/config.ts). */
export const AGENT_ENV_NAMES: readonly string[] = harden([
  'LAL_PERSONA',
  'LAL_LOG',
  'LAL_STOP_AFTER_ANSWER',
  // Read by approval/host-approved-evaluation.ts: on the newest daemon, evaluate without asking the host.
  'LAL_DIRECT_EVAL',
  // Read by progress/live-placeholders.ts: on the newest daemon, answers fill in one message (0 turns it off).
  'LAL_PROGRESS',
  // Read by progress/live-placeholders.ts: how long a turn runs before its placeholder is posted.
  'LAL_PROGRESS_AFTER_MS',
  ...Object.values(LIMIT_ENV),
  ...POLICY_ENV_NAMES,
  ...QUOTA_ENV_NAMES,
  ...SCHEDULE_ENV_NAMES,
  ...TOOLBOX_ENV_NAMES,
  ...HELPER_ENV_NAMES,
]);
harden(AGENT_ENV_NAMES);

export interface AgentConfig {
  persona: Persona;
  limits: AgentLimits;
  /** End a turn once the sender is answered, without a last model call (LAL_STOP_AFTER_ANSWER, default on). */
  stopAfterAnswer: boolean;
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
  for (const key of Object.keys(LIMIT_ENV) as (keyof AgentLimits)[]) {
    limits[key] = readPositiveInteger(env, LIMIT_ENV[key], DEFAULT_LIMITS[key], problems);
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
  const rawStop = (env.LAL_STOP_AFTER_ANSWER ?? '').trim().toLowerCase();
  const stopAfterAnswer = !['0', 'false', 'no', 'off'].includes(rawStop);
  const quota = readHourlyQuota(env, problems);
  problems.push(...toolPolicyProblems(env));
  const schedule = readScheduleSettings(env, problems);
  const toolbox = readToolboxSettings(env, problems);
  const helpers = readHelperSettings(env, problems);
  return harden({ persona, limits, stopAfterAnswer, quota, schedule, toolbox, helpers, problems });
};
harden(readAgentConfig);
