/**
 * The agent's settings in one table (docs/configuration.md is held to it by
 * test/docs-configuration.test.ts): each variable with its default, what
 * reads it and its row's meaning. The limits and the flags are read from
 * their entries here; the rest by the reader each names. The names setup
 * passes to the agent (setup/passed-env.ts) and the misspelt-setting check
 * (setup/known-settings.ts) come from the same table.
 */
import { closestNames } from '../../providers/closest-names.js';
import { DEFAULT_CONTEXT_TOKENS } from '../../providers/config.js';
import { settingNames, type SettingRow } from '../../providers/setting-row.js';
import type { Env } from '../../providers/types.js';

interface NumberSetting {
  env: string;
  default: number;
  /** The smallest value that works, when it is more than 1. */
  least?: number;
  doc: string;
}

interface FlagSetting {
  env: string;
  default: boolean;
  doc: string;
}

/** The agent's bounds: each a positive whole number; a bad value is told to the HOST and the default holds. */
export const LIMIT_SETTINGS = {
  maxModelCalls: { env: 'LAL_MAX_MODEL_CALLS', default: 24, doc: 'model calls one turn may make' },
  maxCallsPerReply: {
    env: 'LAL_MAX_CALLS_PER_REPLY',
    default: 16,
    doc: 'tool calls one model reply may make; the rest are answered with an error (the model is told to make them in smaller batches) and the turn goes on',
  },
  repeatWarnAt: {
    env: 'LAL_REPEAT_WARN',
    default: 3,
    doc: 'the same tool with the same arguments in one turn this many times: the model is warned (`LAL_REPEAT_WARN` ≤ `LAL_REPEAT_REFUSE` ≤ `LAL_REPEAT_STOP`, else the three defaults hold)',
  },
  repeatRefuseAt: {
    env: 'LAL_REPEAT_REFUSE',
    default: 5,
    doc: 'the same tool with the same arguments in one turn this many times: the call is refused without running',
  },
  repeatStopAt: {
    env: 'LAL_REPEAT_STOP',
    default: 7,
    doc: 'the same tool with the same arguments in one turn this many times: the turn ends',
  },
  // Above runCommand's own 120 s bound, so a long command is not cut short.
  toolTimeoutMs: {
    env: 'LAL_TOOL_TIMEOUT_MS',
    default: 130_000,
    doc: "a tool call's time limit (above `runCommand`'s own 120 s bound)",
  },
  // Every message waits on the tools' refresh; a FaeTool that does not answer its schema() in this is refused.
  toolLookupTimeoutMs: {
    env: 'LAL_TOOL_LOOKUP_TIMEOUT_MS',
    default: 5_000,
    doc: 'a FaeTool whose look-up or `schema()` takes longer is refused (not offered; the reason is in the log and `help()`) until the value under its name changes',
  },
  maxResultChars: {
    env: 'LAL_MAX_RESULT_CHARS',
    default: 16_000,
    doc: 'a longer tool result is cut, with a marker giving its size',
  },
  // Sized for a 32k-token local model, leaving room for the reply.
  contextTokens: {
    env: 'LAL_CONTEXT_TOKENS',
    default: DEFAULT_CONTEXT_TOKENS,
    // The system prompt and tools alone take about 1,300 tokens: a smaller budget holds no turn.
    least: 2_000,
    doc: 'token budget of one request (system prompt, tools, history), sized for a 32k-token model; at least 2000',
  },
  // Small enough that a long conversation's request stays near its first one's size.
  keepTurns: {
    env: 'LAL_KEEP_TURNS',
    default: 4,
    doc: "finished turns kept word for word; once twice as many are kept, all but the last N fold into the digest at once (so few requests rewrite the prompt's beginning)",
  },
  digestChars: {
    env: 'LAL_DIGEST_CHARS',
    default: 3_000,
    doc: 'characters the digest of older turns may take (once over, its middle goes at once down to half of it, so few folds rewrite it; the first entries and the latest stay)',
  },
  rememberHandled: {
    env: 'LAL_REMEMBER_HANDLED',
    default: 256,
    doc: 'handled message ids kept across restarts while their messages are still in the inbox (a dismissed message is never shown again, so a key leaves once its dismissal settles): a bound for mail kept undismissed',
  },
  maxWakeUps: {
    env: 'LAL_MAX_WAKE_UPS',
    default: 16,
    doc: 'schedules of the `schedule` tool each party may have active at once: one-shot wake-ups, recurring ones, triggers and heartbeat checks together (the HOST its own, each peer its own: behaviour 9.12)',
  },
  // Two polite agents would thank each other for ever (AutoGen's max_consecutive_auto_reply is 10 too).
  maxPeerExchanges: {
    env: 'LAL_MAX_PEER_EXCHANGES',
    default: 10,
    doc: "turns in a row answering one sender that is not the HOST, without a message from the HOST in between; then that sender's messages wait in the inbox (dismissed only when served), the HOST is told once, in one line, who is held, and any message from the HOST starts the count again. `help()` shows who is held (kept across restarts). A channel the agent joined is a sender of its own here: its mentions wait unanswered in the channel",
  },
  maxTurnsPerSenderPerHour: {
    env: 'LAL_MAX_TURNS_PER_SENDER_PER_HOUR',
    default: 60,
    doc: "turns for one sender (not the HOST; a channel the agent joined is one) in any hour; then its messages wait in the inbox (a channel's mentions, unanswered) until the hour frees up, and the HOST is told once until when",
  },
  // A cut reply is answered "retry shorter"; the third in a row means it is not working.
  maxTruncatedReplies: {
    env: 'LAL_MAX_TRUNCATED_REPLIES',
    default: 3,
    doc: "model replies cut by the output limit (`LAL_MAX_TOKENS`) in a row before the turn ends and the sender is told; a cut reply's calls never run, the model is told to retry shorter",
  },
  // Some 20,000 ordinary exchanges (8,000 with tool calls), searched in about a second.
  historyMb: {
    env: 'LAL_HISTORY_MB',
    default: 16,
    doc: "megabytes of the store the searchable history of every turn (`agent-history/`, searched with `mail`'s `recall` op) may take: some 20,000 ordinary exchanges, searched in about a second; beyond it the oldest 8 KiB chunks are dropped first, and each drop is logged with the messages and days it held",
  },
} as const satisfies Record<string, NumberSetting>;
harden(LIMIT_SETTINGS);

export type AgentLimits = { [Key in keyof typeof LIMIT_SETTINGS]: number };

/** On/off settings (providers/read-flag.ts reads the words); another word is told to the HOST and the default holds. */
export const FLAG_SETTINGS = {
  stopAfterAnswer: {
    env: 'LAL_STOP_AFTER_ANSWER',
    default: true,
    doc: 'a turn ends once the sender is answered (reply, resolve, reject), without a last model call; `0` gives the model the last word',
  },
  directEvaluation: {
    env: 'LAL_DIRECT_EVAL',
    default: false,
    doc: 'newest daemon only: `1` lets `evaluate` run code at once, as that daemon intends, instead of asking the HOST (`@host`) first',
  },
  liveProgress: {
    env: 'LAL_PROGRESS',
    default: true,
    doc: 'newest daemon only: `0` turns off live progress (the placeholder reply to `@host` edited as the turn goes, `done: false` until the answer; in a channel, the placeholder in the thread edited into the answer)',
  },
} as const satisfies Record<string, FlagSetting>;
harden(FLAG_SETTINGS);

export type AgentFlags = { [Key in keyof typeof FLAG_SETTINGS]: boolean };

/** The settings read by a reader of their own, named in `read`. */
const OTHER_SETTINGS: readonly SettingRow[] = [
  {
    env: 'LAL_PERSONA',
    default: '`lal`',
    read: 'readAgentConfig: `lal` or `fae`; another word is told to the HOST',
    doc: '`lal` or `fae`: greeting, system prompt, how mail is shown. Both have the same tools',
  },
  {
    env: 'LAL_NAME',
    default: 'the persona',
    read: 'readAgentName, for the log (src/log/log.ts) and help()',
    doc: "the name the agent's log lines start with (`[dave] …`); the setup scripts and the agent manager pass the guest's name",
  },
  {
    env: 'LAL_AUTH_TOKEN_ID',
    default: 'none',
    read: 'readStoredToken (src/serving/stored-token.ts), when the agent starts',
    doc: 'newest daemon: the formula id of a text the HOST stored (`endo store --text KEY --name my-key`) that holds the API key; the agent reads it through its powers when it starts and uses it as `LAL_AUTH_TOKEN`, redacted like it, so neither the chat nor the caplet\'s stored settings hold the key. The "Add an agent" form passes it when given the name of such a value',
  },
  {
    env: 'LAL_ROUTER_MODEL',
    default: 'the main model',
    read: 'runAgent (src/run-agent.ts), for src/channels/route-message.ts',
    doc: "newest daemon's channels: the model asked, once per message no one addressed to the agent, whether to speak at the channel's level (never at `observer`); upstream's `ENDO_LLM_FAST_MODEL` is read as it. The answer itself uses the main model",
  },
  {
    env: 'LAL_LOG',
    default: '`turns`',
    read: 'readLogLevel, for makeLog (src/log/log.ts) and the turn lines (src/log/turn-lines.ts)',
    doc: "what the agent's log (stderr in the worker) holds: `turns`, one line a turn (whom it served, how it ended, model calls, tools called, a call put to the HOST for approval named as such, `runCommand (waits for approval)`, tokens, time) and what goes wrong; `steps` (or `info`, `debug`), each model call and tool call too; `off`, nothing; any other word is told to the HOST as a configuration problem and reads as `turns`",
  },
  {
    env: 'LAL_PROGRESS_AFTER_MS',
    default: '1000',
    read: 'readAgentConfig: a whole number of milliseconds, 0 or more',
    doc: 'newest daemon only: how long a turn (or a channel answer) runs before its live-progress placeholder is posted; one answered sooner is one plain reply, so progress adds no daemon round trip to a quick answer; `0` posts it at once',
  },
  {
    env: 'LAL_MAX_CALLS_PER_HOUR',
    default: 'none',
    read: 'readHourlyQuota (src/settings/hourly-quota-settings.ts): a positive whole number, none by default',
    doc: 'model calls the agent may make in any hour; when spent, new mail waits (its sender is told until when) and is served then. Checked before every model call: a turn in progress stops before the call that would go past the budget, its sender is told when the message is taken up again, and the message waits in the inbox until then. In a channel, a mention waits (its thread told once) and an unaddressed message is not routed',
  },
  {
    env: 'LAL_MAX_TOKENS_PER_HOUR',
    default: 'none',
    read: 'readHourlyQuota (src/settings/hourly-quota-settings.ts): a positive whole number, none by default',
    doc: 'tokens (in + out, as the server reports them) the agent may use in any hour; spent, as above',
  },
  {
    env: 'LAL_TOOL_BUDGET_TOKENS',
    default: '1500',
    read: 'readToolboxSettings (src/settings/toolbox-settings.ts)',
    doc: 'tokens (three characters a token) of the dynamic tools\' schemas offered with every request; past it the tools wait behind the `toolbox` search, except those used lately in the turn\'s thread (as many as fit) and `LAL_TOOLS_ALWAYS` ([mcp.md](mcp.md), "Many servers: the toolbox")',
  },
  {
    env: 'LAL_TOOLS_ALWAYS',
    default: 'none',
    read: 'readToolboxSettings (src/settings/toolbox-settings.ts): a comma-separated list',
    doc: "comma-separated tool names always offered directly, whatever `LAL_TOOL_BUDGET_TOKENS` (as Claude Code's `alwaysLoad`)",
  },
  {
    env: 'LAL_MAX_HELPERS',
    default: '4',
    read: 'readHelperSettings (src/settings/helper-settings.ts)',
    doc: "helper agents (mail's `helper` op, behaviour 7.9) each party may have running at once, at every depth together (the HOST's own, a peer's its own: behaviour 9.12)",
  },
  {
    env: 'LAL_HELPER_DEPTH',
    default: '2',
    read: 'readHelperSettings (src/settings/helper-settings.ts)',
    doc: "how deep helpers go: the agent's own are at depth 1, theirs at 2, none deeper",
  },
  {
    env: 'LAL_HELPER_SECONDS',
    default: '600',
    read: 'readHelperSettings (src/settings/helper-settings.ts)',
    doc: 'the longest a helper may work, and its time when its grant names none; a longer time asked for is cut to this',
  },
  {
    env: 'LAL_MIN_SCHEDULE_SECONDS',
    default: '60',
    read: 'readScheduleSettings (src/settings/schedule-settings.ts)',
    doc: 'the shortest period a recurring wake-up (`every`) or a heartbeat check may have, and how often a trigger may fire at most (events meanwhile are told in the same turn); a loop every 30 seconds is refused with an example of a period that would do',
  },
  {
    env: 'LAL_TIME_ZONE',
    default: '`UTC`',
    read: 'readScheduleSettings (src/settings/schedule-settings.ts): an IANA time zone',
    doc: 'the time zone `cron` expressions are read in (an IANA name: `Europe/Paris`, `America/New_York`); days and hours follow its daylight-saving changes',
  },
  {
    env: 'LAL_HEARTBEAT',
    default: '`30m`',
    read: 'readScheduleSettings (src/settings/schedule-settings.ts): a duration',
    doc: 'how often the heartbeat looks at its checklist (items set with `every: "heartbeat"`); a period as people write it (`15m`, `2h`), at least `LAL_MIN_SCHEDULE_SECONDS`. With no item due it makes no model call at all',
  },
  {
    env: 'LAL_TOOLS_ALLOW',
    default: 'all',
    read: 'src/policy/tool-policy.ts: a comma-separated list',
    doc: 'comma-separated tool names (built-in or FaeTool): only these are offered to the model. In this list and the next four, spaces and empty items are ignored; a blank value is unset, but a value of only commas (`,`) is an empty list, read as written: here no tool is offered, and in `LAL_TRUSTED_SENDERS` no sender is trusted (the HOST is told so at start, as a configuration problem). For the grouped built-ins a name may be the group (`names`, `mail`: all its ops) or one op (`list`, `remove`, `dismiss`: the tool names these had before), here and in `LAL_TOOLS_DENY` and `LAL_TOOLS_APPROVE`; a group is offered with the ops allowed, and a call is judged by its op and its group',
  },
  {
    env: 'LAL_TOOLS_DENY',
    default: 'none',
    read: 'src/policy/tool-policy.ts: a comma-separated list',
    doc: 'comma-separated tool names never offered (a call to one anyway is refused without running)',
  },
  {
    env: 'LAL_TOOLS_APPROVE',
    default: 'none',
    read: 'src/policy/tool-policy.ts: a comma-separated list',
    doc: 'comma-separated tool names whose every call is first put to the HOST as a request: the model gets `pending`; the HOST resolving the request (with any value) runs the call and an APPROVED notice brings the result, rejecting it sends a REFUSED notice with the reason. The request says why it asks (`LAL_TOOLS_APPROVE gates this tool for alice, whom LAL_TRUSTED_SENDERS does not name`, or the taint rule and what the turn read: behaviour.md 9.10). `help()` lists the calls waiting and those approved and still running (the first 200 characters of each, with its whole length); in `npm start`, `/grant n` and `/reject n [reason]` answer them',
  },
  {
    env: 'LAL_TOOLS_CONFIRM',
    default: 'none (in `npm start`: `runCommand`, `writeFile`, `editFile`)',
    read: 'src/policy/tool-policy.ts: a comma-separated list',
    doc: "comma-separated tool names whose every call is put to the HOST first as `LAL_TOOLS_APPROVE` puts it, whoever is served: the HOST's own turns too (`LAL_TRUSTED_SENDERS` does not spare them). `npm start` asks about the tools that change files or run commands, and about the tools you name here besides them (naming others never drops them), less those you answered `always` for (from their very next call; kept in its state folder; `--fresh` forgets them); with `npm start -- --yes` only about those you name. Each request says what asked: `LAL_TOOLS_CONFIRM names this tool`, or in `npm start` its default or `you named math in LAL_TOOLS_CONFIRM`",
  },
  {
    env: 'LAL_TRUSTED_SENDERS',
    default: '`HOST`, `@host` (the HOST as each daemon names it)',
    read: 'src/policy/tool-policy.ts: a comma-separated list',
    doc: "comma-separated pet names whose messages may use `LAL_TOOLS_APPROVE` tools without asking, and whose mail is served with the HOST's, before others'. A list that names only others leaves the HOST asked too; `,` trusts no one: the ways to have every gated call asked for, even the HOST's own",
  },
  {
    env: 'LAL_SHARED_TOOLS',
    default: 'none',
    read: 'readSharedTools (src/parties/shared-tools.ts): a comma-separated list',
    doc: "which of the HOST's dynamic tools (FaeTools of `tools/`, a tool source's such as MCP's, `runCommand`) a turn serving another party holds: a tool's call name shares it with every party, `party:tool` with that party alone (by the name its mail is shown under), `*` stands for every tool (`*`, `bob:*`). None by default: another party's turn is neither offered nor can call any of them (behaviour 9.6). `help()` shows what is shared with whom",
  },
];

/** Every setting of the agent (the providers' are in providers/provider-settings.ts), as docs/configuration.md's rows. */
export const AGENT_SETTINGS: readonly SettingRow[] = harden([
  ...Object.values(LIMIT_SETTINGS).map(setting => ({
    env: setting.env,
    default: String(setting.default),
    read: 'readAgentConfig: a positive whole number',
    doc: setting.doc,
  })),
  ...Object.values(FLAG_SETTINGS).map(setting => ({
    env: setting.env,
    default: setting.default ? 'on' : 'off',
    read: 'readAgentConfig: an on/off word (providers/read-flag.ts)',
    doc: setting.doc,
  })),
  ...OTHER_SETTINGS,
]);
harden(AGENT_SETTINGS);

/** Every variable the agent itself reads: the ones setup passes to it (with the providers'). */
export const AGENT_ENV_NAMES: readonly string[] = settingNames(AGENT_SETTINGS);
harden(AGENT_ENV_NAMES);

/** How much the agent's log holds (LAL_LOG): a turn a line by default. */
export type LogLevel = 'off' | 'turns' | 'steps';

/** The words LAL_LOG takes, in the order docs/configuration.md names them; the first is the default. */
const LOG_WORDS: ReadonlyMap<string, LogLevel> = new Map([
  ['turns', 'turns'],
  ['steps', 'steps'],
  ['info', 'steps'],
  ['debug', 'steps'],
  ['off', 'off'],
]);

const logWordOf = (env: Env): string => (env.LAL_LOG ?? '').trim().toLowerCase();

/** An unknown word reads as the default (logLevelProblem says so to the HOST). */
export const readLogLevel = (env: Env): LogLevel => LOG_WORDS.get(logWordOf(env)) ?? 'turns';
harden(readLogLevel);

/** The configuration problem of a LAL_LOG word it does not take, naming those it does. */
export const logLevelProblem = (env: Env): string | undefined => {
  const word = logWordOf(env);
  if (word === '' || LOG_WORDS.has(word)) return undefined;
  const [near] = closestNames(word, LOG_WORDS.keys(), 1);
  const words = [...LOG_WORDS.keys()].join(', ');
  const got = `LAL_LOG must be one of ${words}, got "${env.LAL_LOG ?? ''}"`;
  return near === undefined ? `${got}; using turns.` : `${got}; did you mean ${near}? Using turns.`;
};
harden(logLevelProblem);

/** The agent's name in its log lines and help(): LAL_NAME (setup passes the guest's name), else the persona. */
export const readAgentName = (env: Env): string =>
  (env.LAL_NAME ?? '').trim() || (env.LAL_PERSONA ?? 'lal').toLowerCase();
harden(readAgentName);
