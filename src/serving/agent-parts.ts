/**
 * Everything a running agent is made of, put together once at start: the
 * daemon's adapter, memory, the model, quotas and wake-ups, the tools, the
 * trackers of what is pending (proposals or host-approved code, requests,
 * approvals), live progress, and the turn server that uses them all. Each
 * part registers its section with the status board for help().
 */
import type { Env, Provider, ToolSchema } from '../../providers/types.js';
import { describeModelChoice } from '../../providers/describe-model-choice.js';
import type { StatusBoard } from '../status/agent-status.js';
import type { Clock } from '../lifecycle/clock.js';
import type { AgentConfig } from '../config/config.js';
import type { PowersRef } from '../daemon/guest-powers.js';
import type { Log } from '../log/log.js';
import type { Observe } from '../events/agent-events.js';
import { makeApprovalGate } from '../asks/approval-gate.js';
import { keepOutcome } from '../history/kept-outcome.js';
import { describeError } from '../../providers/describe-error.js';
import { readToolPolicy, type HostConfirm, type ToolPolicy } from '../policy/tool-policy.js';
import { makeStoreBoundary } from '../policy/store-boundary.js';
import { makeCallParties } from '../policy/call-parties.js';
import { makePowersGiven } from '../policy/powers-given.js';
import { loadToolGivers } from '../agent-tools/tool-givers.js';
import { makeHostApprovedEvaluation } from '../asks/host-approved-evaluation.js';
import { makeDaemonAdapter, type DaemonAdapter } from '../daemon/daemon-adapter.js';
import { daemonStatus } from '../daemon/daemon-status.js';
import { makeRevisionGate } from '../mail/revision-gate.js';
import { makeSenderNames, type NameOf } from '../mail/sender-names.js';
import { makeTellSender, type TellSender } from '../mail/tell-sender.js';
import {
  describeMemoryTrouble,
  loadMemory,
  saveMemory,
  type Memory,
} from '../memory/agent-memory.js';
import { trackHandled, type DismissalEar, type HandledKeys } from '../memory/handled-keys.js';
import { loadHistoryArchive, type HistoryArchive } from '../recall/history-archive.js';
import { makeNoticeQueue } from './notices.js';
import { type NoticeQueue } from '../mail/origin.js';
import { makeLivePlaceholders, type LivePlaceholders } from '../progress/live-placeholders.js';
import { makeProposalTracker, type ProposalTracker } from '../asks/proposal-tracker.js';
import { makeRequestTracker, type RequestTracker } from '../asks/request-tracker.js';
import { makeWakeUps, type WakeUps } from '../schedule/wake-ups.js';
import { makeDirectoryWatch, type DirectoryWatch } from '../schedule/watch-directories.js';
import { makePendingAsks, type PendingAsks } from '../asks/pending-asks.js';
import { makeQuotaStop } from '../usage/quota-stop.js';
import { makeTurnServer, type TurnServer } from './serve-turn.js';
import { BUILTIN_SCHEMAS } from '../agent-tools/builtin-schemas.js';
import { schemasFor } from '../prompt/speak-generation.js';
import { makeToolbox, type Toolbox } from '../toolbox/toolbox.js';
import { describeOffered, listTools } from '../toolbox/tools-by-source.js';
import { OWN_TOOL_NAMES } from '../toolbox/own-tool-names.js';
import {
  makeToolRegistry,
  TOOLS_DIRECTORY,
  type ToolRegistry,
} from '../agent-tools/fae-tool-registry.js';
import { describeQuota } from '../usage/hourly-quota.js';
import { makeQuotaWaits, type QuotaWaits } from '../usage/quota-waits.js';
import { describeUsage } from '../usage/usage-ledger.js';
import type { Lane, WorkQueue } from './work-queue.js';
import { makeConversationBounds, type ConversationBounds } from '../peers/conversation-bounds.js';
import { senderKey, SENDERS_KEPT } from '../peers/sender-ledger.js';
import { makeBoundedMap } from '../lifecycle/bounded-collections.js';
import { makeHolds, type Holds } from '../lifecycle/holds.js';
import { loadModel, type ModelChoice } from '../model/load-model.js';
import type { Work } from './work.js';
import { makeHelpers, type Helpers, type HelpersSetup } from '../helpers/helpers.js';
import { makeFacetMaker } from '../parties/facets.js';

export interface AgentParts {
  daemon: DaemonAdapter;
  memory: Memory;
  /** The whole conversation in the store, searchable (saved with the memory). */
  history: HistoryArchive;
  model: ModelChoice;
  nameOf: NameOf;
  tell: TellSender;
  quotaWaits: QuotaWaits<Work>;
  /** Work held back (by the quotas, the peer bounds, postponed schedules), its timers and told-once marks (stored). */
  holds: Holds<Work>;
  /** Requests, approvals and proposals still waiting for an answer, kept in the store over restarts. */
  asks: PendingAsks;
  wakeUps: WakeUps;
  /** Follows the directories that "change in" wake-ups watch (after they are armed at start). */
  watchDirectories(): void;
  /** Keys of the messages answered; those still in the inbox kept in memory across restarts. */
  handled: HandledKeys;
  revisions: ReturnType<typeof makeRevisionGate>;
  tools: ToolRegistry;
  notices: NoticeQueue;
  proposals: ProposalTracker;
  requests: RequestTracker;
  approvals: ReturnType<typeof makeApprovalGate>;
  progress: LivePlaceholders;
  turns: TurnServer;
  /** Helper agents running in the background (src/helpers/). */
  helpers: Helpers;
  /** The bounds on conversations with senders other than the HOST, and the senders served. */
  senders: ConversationBounds<Work>;
  /** A message's sender as a key (its lane in the queue, its entry among the senders). */
  senderKeyOf(from: unknown): string;
  /** The lane a message waits in: its sender's, first for the HOST and trusted senders. */
  laneOf(message: { from?: unknown }): Promise<Lane>;
  /** Stops the timers (holds, wake-ups) and leaves pending asks to the next run. */
  stop(reason?: unknown): void;
  /** Every tool a turn can reach by name, those behind the toolbox too (the controller's tools()). */
  listTools(): string;
}

export interface PartsSetup {
  powers: PowersRef;
  env: Env;
  config: AgentConfig;
  status: StatusBoard;
  log: Log;
  observe: Observe;
  redact: (text: string) => string;
  clock: Clock;
  queue: WorkQueue<Work>;
  signal: AbortSignal;
  createProvider: (env: Env, tools: { log: Log }) => Provider | Promise<Provider>;
  /** The calls an in-process host puts to the HOST first, in place of LAL_TOOLS_CONFIRM. */
  confirm?: HostConfirm;
  /** Where the guest powers tell of each dismissal that went through (../memory/handled-keys.ts). */
  dismissals?: Pick<DismissalEar, 'reach'>;
}

/** What waits for an answer: outcomes for the model, asks kept over restarts, code, requests, tool approvals. */
const assembleTrackers = (
  setup: PartsSetup,
  daemon: DaemonAdapter,
  { memory, history }: { memory: Memory; history: Pick<HistoryArchive, 'add'> },
  directEvaluation: boolean,
) => {
  const { powers, env, config, status, log, redact, queue } = setup;
  // Outcomes not yet shown to the model are kept in the store, and those from before a restart queued again.
  const notices = makeNoticeQueue(() => queue.push({ kind: 'notices' }), memory.notices);
  const asks = makePendingAsks({
    store: memory.asks,
    powers,
    log,
    save: () => saveMemory(powers, memory, log, redact),
  });
  const proposals =
    daemon.generation === 'newest'
      ? makeHostApprovedEvaluation({
          powers,
          log,
          notices,
          hostName: daemon.names.host,
          who: `The ${config.persona} agent`,
          direct: directEvaluation,
          asks,
        })
      : makeProposalTracker({ powers, log, notices, asks });
  const requests = makeRequestTracker({ powers, notices, asks });
  const policy = readToolPolicy(env, setup.confirm);
  const approvals = makeApprovalGate({
    powers,
    notices,
    asks,
    agentName: config.persona === 'fae' ? 'Fae' : 'Lal',
    approver: daemon.names.host,
    // Kept as a finished turn is: in the conversation, and in the searchable history (which the
    // memory's write carries), so recall finds it (docs/behaviour.md 3.11).
    keep: (title, text, origin) => {
      history.add(keepOutcome(memory.conversation, title, text), origin);
      void saveMemory(powers, memory, log, redact);
    },
  });
  status.section('Tool policy', () => [
    ...policy.describe(daemon.names.host),
    ...approvals.describe(),
  ]);
  return { notices, asks, proposals, requests, policy, approvals };
};

/**
 * The memory, its handled keys (told of each dismissal from now on, those of mail gone from the
 * inbox let go) and the searchable history of every turn (src/recall/), with their sections in help().
 */
const loadStore = async (
  setup: PartsSetup,
  hostName: string,
): Promise<{ memory: Memory; handled: HandledKeys; history: HistoryArchive }> => {
  const { powers, log, redact, clock, config, status } = setup;
  const memory = await loadMemory(powers, log, clock.now(), hostName);
  status.section('Memory', () => describeMemoryTrouble(memory));
  const handled = trackHandled(memory.handled, config.limits.rememberHandled);
  await setup.dismissals?.reach(handled, powers, log);
  const history = await loadHistoryArchive(
    { powers, log, redact, clock, maxMb: config.limits.historyMb },
    // The memory holds the open chunk and writes it (version 11).
    memory,
    // A store from before labels: its words as they were, searchable (docs/behaviour.md 9.11).
    memory.wordsBeforeLabels ?? memory.conversation,
  );
  status.section('History', () => history.describe());
  return { memory, handled, history };
};

/** The usage and its quotas, and the one owner of held work, its timers and told-once marks (stored). */
const assembleHolds = (setup: PartsSetup, memory: Memory) => {
  const { config, status, clock, queue } = setup;
  status.section('Usage', () => [
    ...describeUsage(memory.usage),
    ...describeQuota(memory.usage, config.quota, clock.now()),
  ]);
  const requeue = (work: Work) => queue.push(work);
  const holds = makeHolds<Work>({ clock, requeue, told: memory.holds });
  const quotaWaits = makeQuotaWaits<Work>({
    clock,
    quota: config.quota,
    ledger: () => memory.usage,
    holds,
    requeue,
  });
  return { holds, quotaWaits };
};

/** Senders: the bounds on conversations with others than the HOST, and the lanes mail waits in. */
const assembleSenders = (
  setup: PartsSetup,
  daemon: DaemonAdapter,
  memory: Memory,
  holds: Holds<Work>,
  nameOf: NameOf,
  trusts: (sender: string) => boolean,
) => {
  const { config, status, clock, queue } = setup;
  const hostName = daemon.names.host;
  const senders = makeConversationBounds<Work>({
    records: memory.senders,
    limits: config.limits,
    clock,
    hostName,
    holds,
    elsewhere: key => {
      const node = daemon.selfId === undefined ? undefined : senderKey(daemon.selfId).split(':')[1];
      return node !== undefined && key.split(':')[1] !== node;
    },
  });
  status.section('Senders served', () => senders.describe());
  // How each lane's sender was last shown, for help().
  const laneNames = makeBoundedMap<string, string>(SENDERS_KEPT);
  status.section('Waiting to be served', () =>
    queue.waiting().map(({ lane, size }) => `${laneNames.get(lane) ?? lane}: ${size}`),
  );
  const senderKeyOf = (from: unknown): string => {
    const id = daemon.idOf(from);
    return id === undefined ? String(from) : senderKey(id);
  };
  const laneOf = async (message: { from?: unknown }): Promise<Lane> => {
    const sender = await nameOf(message.from);
    const key = senderKeyOf(message.from);
    laneNames.set(key, sender);
    return { key, first: sender === hostName || trusts(sender) };
  };
  return { senders, senderKeyOf, laneOf };
};

/** Live progress in the chat (newest daemon), and its help() section. */
const assembleProgress = (setup: PartsSetup, daemon: DaemonAdapter, directEvaluation: boolean) => {
  const { powers, config, status, clock, log } = setup;
  const liveProgress = config.liveProgress && daemon.canEdit;
  status.section('Live progress', () => [
    liveProgress
      ? `on: answers to ${daemon.names.host} fill in one message as the turn goes (LAL_PROGRESS=0 turns it off)`
      : daemon.canEdit
        ? 'off (LAL_PROGRESS=0): each answer is sent whole, once written'
        : 'off: this daemon cannot edit a message, so each answer is sent whole, once written; a terminal may still show the words as they stream',
  ]);
  return makeLivePlaceholders({
    powers,
    daemon,
    clock,
    log,
    enabled: liveProgress,
    directEvaluation,
    postAfterMs: config.progressAfterMs,
  });
};

/** The FaeTools of tools/, who gave each, and their help() sections. */
const assembleTools = async (setup: PartsSetup) => {
  const { powers, log, config } = setup;
  const givers = await loadToolGivers(powers, log);
  const tools = makeToolRegistry({
    powers,
    log,
    // `toolbox` is the agent's own while tools are deferred: no FaeTool may take its name.
    builtinNames: new Set(OWN_TOOL_NAMES),
    lookupTimeoutMs: config.limits.toolLookupTimeoutMs,
    givers,
  });
  const toolbox = makeToolbox({ registry: tools, settings: config.toolbox });
  return { givers, tools, toolbox };
};

/** The schedules (src/schedule/), and the directories their "change in" triggers watch. */
const assembleWakeUps = (setup: PartsSetup, daemon: DaemonAdapter, memory: Memory) => {
  const { powers, config, status, log, clock, queue } = setup;
  // "change in <dir>" wake-ups fire on the directory's name changes (schedule/watch-directories.ts).
  let watch: DirectoryWatch | undefined;
  const wakeUps = makeWakeUps({
    stored: memory.wakeUps,
    counted: memory,
    clock,
    max: config.limits.maxWakeUps,
    onDue: id => queue.push({ kind: 'wake', id }),
    settings: config.schedule,
    hostName: daemon.names.host,
    onWatchedChange: () => watch?.follow(wakeUps.watched()),
  });
  const following = makeDirectoryWatch({
    powers,
    followNameChanges: daemon.followNameChanges,
    idOf: value => daemon.idOf(value),
    log,
    changed: path => wakeUps.changed(path),
  });
  watch = following;
  status.section('Wake-ups', () => [...wakeUps.describe(), ...wakeUps.parties()]);
  return { wakeUps, watch: following };
};

/** Whom a call reaches and what no call may touch (src/policy/), shared by the turns and the helpers. */
const assembleCallJudges = (
  setup: PartsSetup,
  daemon: DaemonAdapter,
  policy: { trustedNames(): readonly string[] },
) => ({
  parties: makeCallParties({
    powers: setup.powers,
    idOf: id => daemon.idOf(id),
    hostName: daemon.names.host,
  }),
  boundary: makeStoreBoundary({
    powers: setup.powers,
    selfName: daemon.names.agent,
    trustedNames: () => policy.trustedNames(),
  }),
  powersGiven: makePowersGiven({ powers: setup.powers, names: daemon.names }),
});

/** Helper agents (src/helpers/), and their section in help(). */
const assembleHelpers = (
  setup: PartsSetup,
  parts: Omit<
    HelpersSetup,
    'settings' | 'limits' | 'agentName' | 'powers' | 'redact' | 'observe' | 'signal' | 'clock'
  >,
): Helpers => {
  const { config } = setup;
  const helpers = makeHelpers({
    ...parts,
    settings: config.helpers,
    limits: config.limits,
    agentName: config.persona === 'fae' ? 'Fae' : 'Lal',
    powers: setup.powers,
    redact: setup.redact,
    observe: setup.observe,
    signal: setup.signal,
    clock: setup.clock,
  });
  setup.status.section('Helpers', () => helpers.describe());
  return helpers;
};

/** help()'s Tools: the built-ins a turn is offered (after the policy), then tools/'s; tools() names each. */
const describeTools = (
  { status, config }: PartsSetup,
  parts: {
    builtins: readonly ToolSchema[];
    policy: ToolPolicy;
    tools: ToolRegistry;
    toolbox: Toolbox;
  },
  daemon: DaemonAdapter,
): (() => string) => {
  const { builtins, policy, tools, toolbox } = parts;
  const hostName = daemon.names.host;
  const allowed = (schemas: readonly ToolSchema[]) => policy.offered(schemas);
  const seen = { tools, toolbox, allowed, hostName };
  const builtinNames = () => policy.offered(builtins).map(schema => schema.function.name);
  status.section('Tools offered', () => describeOffered(seen, config.toolbox.budgetTokens));
  status.section('Tools refused', () =>
    tools.refused().map(({ petName, reason }) => `${TOOLS_DIRECTORY}/${petName}: ${reason}`),
  );
  status.section('Tools', () => [
    `built in: ${builtinNames().join(', ') || 'none (LAL_TOOLS_ALLOW, LAL_TOOLS_DENY)'}`,
    ...toolbox.describe(allowed),
  ]);
  return () => listTools(seen, builtinNames());
};

/** The model help() names, or why there is none: logged too, beside the greeting's "I cannot think yet" (a revived agent that does not greet again still says why). */
const describeModel = (model: ModelChoice, { status, log }: Pick<PartsSetup, 'status' | 'log'>) => {
  if ('provider' in model) {
    const provider = model.provider;
    status.section('Model', () => [describeModelChoice(provider)]);
    return;
  }
  const reason = `cannot think: ${model.problem}`;
  log(reason);
  status.section('Model', () => [reason]);
};

export const assembleAgentParts = async (setup: PartsSetup): Promise<AgentParts> => {
  const { powers, env, config, status, log, redact, clock } = setup;
  const daemon = await makeDaemonAdapter(powers, log);
  const directEvaluation = config.directEvaluation;
  status.section('Daemon', () => daemonStatus(daemon, directEvaluation));
  const { memory, handled, history } = await loadStore(setup, daemon.names.host);
  const model = await loadModel({
    createProvider: setup.createProvider,
    ...{ env, log, redact, memory, clock },
  });
  describeModel(model, setup);
  const { holds, quotaWaits } = assembleHolds(setup, memory);
  const { wakeUps, watch } = assembleWakeUps(setup, daemon, memory);
  const { givers, tools, toolbox } = await assembleTools(setup);
  const { notices, asks, proposals, requests, policy, approvals } = assembleTrackers(
    setup,
    daemon,
    { memory, history },
    directEvaluation,
  );
  // One list of built-ins for every turn and for help().
  const builtins = schemasFor(BUILTIN_SCHEMAS, daemon, directEvaluation);
  const listAll = describeTools(setup, { builtins, policy, tools, toolbox }, daemon);
  const progress = assembleProgress(setup, daemon, directEvaluation);
  // Names follow the directory: whom LAL_TRUSTED_SENDERS trusts is who the name is now.
  const nameOf = makeSenderNames(powers, daemon, { signal: setup.signal, log });
  const tell = makeTellSender(powers, log, redact, daemon.names.host);
  const quotaStop = makeQuotaStop(() => quotaWaits.check(), clock);
  const { parties, boundary, powersGiven } = assembleCallJudges(setup, daemon, policy);
  // The one place each turn's powers are made, for the party it serves (src/parties/).
  const facets = makeFacetMaker({
    ...{ powers, env, nameOf, daemon, policy, toolbox, builtins, requests, proposals, wakeUps },
    hostName: daemon.names.host,
    persona: config.persona,
    registry: toolbox.registry,
  });
  status.section('Shared tools', () => facets.describe());
  const helpers = assembleHelpers(setup, {
    store: memory.helpers,
    model,
    hostName: daemon.names.host,
    nameOf,
    policy,
    approvals,
    boundary,
    parties,
    notices,
    history,
    quotaStop,
  });
  const turns = makeTurnServer({
    model,
    config,
    conversation: memory.conversation,
    threads: memory.threads,
    powers,
    nameOf,
    tools: toolbox.registry,
    toolbox,
    proposals,
    requests,
    policy,
    approvals,
    // A message a helper still works for stays answerable, as one an ask waits for.
    asks: { hasPendingFor: number => asks.hasPendingFor(number) || helpers.workFor(number) },
    notices,
    tell,
    observe: setup.observe,
    redact,
    signal: setup.signal,
    daemon,
    builtins,
    progress,
    quotaStop,
    history,
    givers,
    parties,
    boundary,
    helpers,
    facets,
    powersGiven,
    now: () => setup.clock.now(),
  });
  const senders = assembleSenders(setup, daemon, memory, holds, nameOf, name =>
    policy.trusts(name),
  );
  return {
    ...senders,
    daemon,
    memory,
    history,
    model,
    nameOf,
    tell,
    quotaWaits,
    holds,
    wakeUps,
    asks,
    tools,
    notices,
    proposals,
    requests,
    approvals,
    progress,
    turns,
    helpers,
    handled,
    revisions: makeRevisionGate(),
    watchDirectories: () => watch.follow(wakeUps.watched()),
    listTools: listAll,
    stop(reason?: unknown) {
      holds.stop();
      wakeUps.stop();
      watch.stop();
      // The approved calls it runs are stopped with it: stored as such (issue 45), then asks
      // still pending when this run stops are the next run's to follow.
      approvals.stopRunning(reason === undefined ? 'no reason given' : describeError(reason));
      asks.stop();
    },
  };
};
harden(assembleAgentParts);
