/**
 * Serves one turn about a message (or about proposal outcomes): runs the
 * ReAct loop with every tool, then speaks for the model where it left
 * something unsaid — its plain-text answer goes to the sender, and a turn
 * ended by a failure or a bound is explained to the sender.
 */
import type { Provider, ToolCall, ToolSchema } from '../../providers/types.js';
import { makeBoundedSet } from '../lifecycle/bounded-collections.js';
import type { AgentConfig } from '../config/config.js';
import type { PowersRef } from '../daemon/guest-powers.js';
import type { Conversation, Turn } from '../history/conversation.js';
import { keepOnlyHostsWords, shownLabel } from '../history/word-labels.js';
import { outcomeLabel } from '../asks/outcome-label.js';
import { startTurn } from '../history/conversation.js';
import { rewritesBeginning } from '../history/build-request.js';
import { showToHost, threadOf, threadSender, type SenderThread } from '../history/threads.js';
import type { Observe } from '../events/agent-events.js';
import { executeTool } from '../builtin-tools/execute-tool.js';
import { runTurn, type Steering, type TurnOutcome, type TurnTools } from '../loop/run-turn.js';
import { cut } from '../mail/message-record.js';
import type { NameOf } from '../mail/sender-names.js';
import type { TellSender } from '../mail/tell-sender.js';
import type { NoticeQueue, Origin } from '../mail/origin.js';
import type { ProposalTracker } from '../asks/proposal-tracker.js';
import type { RequestTracker } from '../asks/request-tracker.js';
import type { PendingAsks } from '../asks/pending-asks.js';
import { codeSpans } from '../mail/code-spans.js';
import type { DaemonAdapter } from '../daemon/daemon-adapter.js';
import type { BuiltinContext } from '../builtin-tools/dispatch-builtin-tool.js';
import type { ToolRegistry } from '../agent-tools/fae-tool-registry.js';
import type { Toolbox } from '../toolbox/toolbox.js';
import type { ApprovalGate } from '../asks/approval-gate.js';
import { guardToolCall } from '../policy/guard-tool-call.js';
import { decodeCall, type DecodedCall } from '../agent-tools/decode-call.js';
import type { ToolPolicy } from '../policy/tool-policy.js';
import type { QuotaStop } from '../usage/quota-stop.js';
import {
  closingLine,
  speakThrough,
  type LivePlaceholders,
  type Placeholder,
} from '../progress/live-placeholders.js';
import { textContent } from '../progress/throttled-edits.js';
import { tellTurnEnd, type TurnEnded } from './tell-turn-end.js';
import type { HistoryArchive } from '../recall/history-archive.js';
import type { StoreBoundary } from '../policy/store-boundary.js';
import type { ToolGivers } from '../agent-tools/tool-givers.js';
import type { CallParties } from '../policy/call-parties.js';
import { makeTurnTaint, type TurnTaint } from '../policy/turn-taint.js';
import type { PowersGiven } from '../policy/powers-given.js';
import { makeMarkForHost } from '../policy/model-words.js';
import type { Helpers } from '../helpers/helpers.js';
import type { Facet, FacetMaker } from '../parties/facets.js';

const NOTICE_MAX_CHARS = 8_000;
const DISMISSED_REMEMBERED = 256;

export interface TurnServerSetup {
  /** The model, or why there is none. */
  model: { provider: Provider } | { problem: string };
  config: AgentConfig;
  /** The HOST's thread: every turn (docs/behaviour.md 9.1). */
  conversation: Conversation;
  /** Every other sender's own thread. */
  threads: SenderThread[];
  powers: PowersRef;
  nameOf: NameOf;
  tools: ToolRegistry;
  /** Past a budget, the dynamic tools deferred behind the `toolbox` search (src/toolbox/). */
  toolbox?: Toolbox;
  proposals: ProposalTracker;
  requests: RequestTracker;
  /** Which tools are offered, and which calls the HOST approves first. */
  policy: ToolPolicy;
  approvals: ApprovalGate;
  /** Every ask still pending (asks/pending-asks.ts): whether the message may still be answered later. */
  asks: Pick<PendingAsks, 'hasPendingFor'>;
  notices: NoticeQueue;
  tell: TellSender;
  observe: Observe;
  redact: (text: string) => string;
  signal: AbortSignal;
  /** The daemon generation's names and tools (daemon/); f0a46042a's words when absent. */
  daemon?: DaemonAdapter;
  /** The built-in tools in this daemon's words, before the policy (prompt/speak-generation.ts's schemasFor). */
  builtins: readonly ToolSchema[];
  /** The hourly budgets, checked before every model call (usage/quota-stop.ts). */
  quotaStop?: QuotaStop;
  /** Live progress in the chat (newest daemon): a placeholder edited as the turn goes. */
  progress?: LivePlaceholders;
  /** The searchable history: each finished turn is added, and mail's `recall` searches it (a sender's turn, its own exchanges). */
  history?: Pick<HistoryArchive, 'add' | 'search'>;
  /** What no tool call may touch (policy/store-boundary.ts). */
  boundary?: StoreBoundary;
  /** Who gave each tool adopted from others (tools/tool-givers.ts). */
  givers?: ToolGivers;
  /** Whom a call reaches, by identity: the taint rule and the model's marked words need it (policy/). */
  parties?: CallParties;
  /** Helper agents (src/helpers/): mail's helper op makes one from what the turn holds. */
  helpers?: Helpers;
  /** The one place a turn's powers are made: the facet of the party it serves (src/parties/). */
  facets: FacetMaker;
  /** What of the agent's own a call gives: the HOST approves each such call of its turns (policy/powers-given.ts). */
  powersGiven?: PowersGiven;
  /** The time, for the HOST's line of another party's turn (the system's when absent). */
  now?: () => number;
}

export interface TurnServer {
  /** Runs a turn (the caller has brought `tools` up to date); undefined when there is no model. */
  serve(
    title: string,
    content: string,
    origin: Origin | undefined,
    options?: TurnOptions,
  ): Promise<TurnOutcome | undefined>;
  /** Whether the model dismissed this message itself (and forgets it). */
  takeDismissedByModel(number: bigint): boolean;
}

interface TurnOptions {
  /** A heartbeat's turn: silence is its answer, and its plain text is told to no one. */
  quiet?: boolean;
  /** What the turn's own notice carries that did not come from the HOST (an outcome turn's outcomes, a wake-up a labelled turn made): it taints the turn as an outcome shown mid-turn does, and labels its words from the start (behaviour 9.10, 9.11). */
  untrusted?: string;
}

/** The nudge for a turn that ended with no tool call and no word while its sender waits. */
const silenceNudge = (origin: Origin): string =>
  `You ended without a word, and ${origin.sender} (message #${origin.number}) is still waiting. Reply to them, even if only to say you cannot help.`;

const agentNameOf = (setup: TurnServerSetup) => (setup.config.persona === 'fae' ? 'Fae' : 'Lal');

/** What the built-in tools work with during one turn; `reply` and `send` speak through the placeholder if any. */
const builtinContextFor = (
  setup: TurnServerSetup,
  facet: Facet,
  origin: Origin | undefined,
  placeholder: Placeholder | undefined,
  turn: TurnTaint,
  /** The sender whose thread the turn is in; undefined for the HOST's (which sees all). */
  thread: string | undefined,
): BuiltinContext => ({
  powers: facet.powers,
  nameOf: setup.nameOf,
  proposals: facet.proposals,
  requests: facet.requests,
  tools: facet.tools,
  origin,
  hostName: setup.daemon?.names.host ?? 'HOST',
  // tools/ and the guest's own directory are in the HOST's facet alone.
  ...(setup.givers === undefined || facet.party.kind !== 'host' ? {} : { givers: setup.givers }),
  ...(setup.boundary === undefined || facet.party.kind !== 'host'
    ? {}
    : { isOwnDirectory: setup.boundary.isOwnDirectory }),
  ...(setup.parties === undefined
    ? {}
    : {
        markForHost: makeMarkForHost({
          agentName: agentNameOf(setup),
          origin,
          turn,
          parties: setup.parties,
        }),
      }),
  ...(facet.wakeUps === undefined ? {} : { wakeUps: facet.wakeUps }),
  read: () => turn.read(),
  ...(setup.history === undefined
    ? {}
    : {
        recall: (query: string) => setup.history!.search(query, thread),
      }),
  ...(placeholder === undefined || origin === undefined
    ? {}
    : { speak: speakThrough(placeholder, origin, setup.powers) }),
});

/** The turn's tools: what a request offers (the facet's, the toolbox past the budget), each call decoded as the tool it names, run in `context`. */
const turnTools = (setup: TurnServerSetup, facet: Facet, context: BuiltinContext): TurnTools => ({
  offer: () => facet.offer(),
  // A call through `toolbox` is judged and run as the tool it names (src/toolbox/toolbox.ts).
  decode: (call: ToolCall) =>
    decodeCall(
      setup.toolbox?.unwrap(call) ?? call,
      setup.redact,
      name => facet.tools.find(name)?.schema.function.parameters,
    ),
  execute: (decoded, offered, stop) => executeTool(decoded, context, offered, stop),
});

/** A helper is made from what this turn holds: its facet, as the policy lets it through (behaviour 7.9). */
const helpersOf = (
  setup: TurnServerSetup,
  facet: Facet,
  origin: Origin | undefined,
  taint: TurnTaint,
): Pick<BuiltinContext, 'helpers'> =>
  setup.helpers === undefined
    ? {}
    : { helpers: setup.helpers.makerFor({ origin, facet, depth: 0, taint }) };

/** What this turn has read or shows that did not come from the HOST (behaviour 9.10, 9.11), from the start; its words labelled where that came in. */
const taintOf = (
  setup: TurnServerSetup,
  origin: Origin | undefined,
  hostName: string,
  untrusted: string | undefined,
  words: { conversation: Conversation; turn: Turn },
): TurnTaint => {
  const taint = makeTurnTaint(origin, hostName, sender => setup.policy.trusts(sender), {
    turn: words.turn,
    shown: () => shownLabel(words.conversation, words.turn),
  });
  if (untrusted !== undefined) taint.note(untrusted, 'opening');
  return taint;
};

/** What no call may touch, judged where the turn's paths lead: the guest's directory, or the party's own. */
const boundaryOf = (boundary: StoreBoundary, facet: Facet): Pick<StoreBoundary, 'refusal'> =>
  facet.party.kind === 'host' ? boundary : boundary.within(facet.powers);

/** The policy's seam every call of the turn passes, judging it by what the facet holds and reaches. */
const guardFor = (
  setup: TurnServerSetup,
  facet: Facet,
  origin: Origin | undefined,
  taint: TurnTaint,
) =>
  guardToolCall({
    holds: names => facet.holds(names),
    policy: setup.policy,
    gate: setup.approvals,
    origin,
    ...(setup.boundary === undefined ? {} : { boundary: boundaryOf(setup.boundary, facet) }),
    ...(setup.powersGiven === undefined ? {} : { gives: givesOf(setup.powersGiven, facet) }),
    ...(setup.parties === undefined ? {} : { taint: { turn: taint, parties: setup.parties } }),
  });

/** What of the agent's own a call of this turn gives, read where its paths lead; only the HOST's turn may ask. */
const givesOf = (judge: PowersGiven, facet: Facet) => {
  const hostTurn = facet.party.kind === 'host';
  return {
    hostTurn,
    given: (call: DecodedCall) => judge.given(call, hostTurn ? undefined : facet.powers),
  };
};

/** The turn's events go to the placeholder too, when there is one. */
const observeThrough =
  (observe: Observe, placeholder: Placeholder | undefined): Observe =>
  event => {
    observe(event);
    placeholder?.see(event);
  };

/**
 * Before each model call: this message's outcomes (another message's go to a turn of their
 * own), each tainting the turn, and why to stop when an hourly budget is spent.
 */
const steeringOf =
  (setup: TurnServerSetup, origin: Origin | undefined, taint: Pick<TurnTaint, 'note'>) =>
  (): Steering => {
    const taken = setup.notices.takeFor(origin);
    // An outcome carries what someone else answered, or what a call or code returned.
    for (const notice of taken) taint.note(outcomeLabel([notice.id]), 'notice');
    const stop = setup.quotaStop?.(origin);
    return { show: taken.map(notice => notice.text), ...(stop === undefined ? {} : { stop }) };
  };

/** When the turn ends besides the model's last word: once its message is answered, if the configuration says so. */
const endWhenOf = (config: AgentConfig, origin: Origin | undefined) =>
  config.stopAfterAnswer && origin !== undefined ? { endWhen: { answered: origin.number } } : {};

/** A finished turn, closed in the history by now whatever ended it, filed where each part belongs. */
const fileTurn = (
  setup: TurnServerSetup,
  turn: Turn,
  origin: Origin | undefined,
  thread: string | undefined,
  peerTurn: boolean,
): void => {
  if (thread !== undefined)
    showToHost(setup.conversation, turn, thread, origin?.number, (setup.now ?? Date.now)());
  // Kept whole, with its label, to be searched later.
  setup.history?.add(turn, origin);
  // The HOST's (and a trusted sender's) later turns are not shown words that did not come from them (behaviour 9.11).
  if (!peerTurn) keepOnlyHostsWords(turn);
};

export const makeTurnServer = (setup: TurnServerSetup): TurnServer => {
  const { model, config, observe, tell, signal } = setup;
  const hostName = setup.daemon?.names.host ?? 'HOST';
  // Messages the model dismissed that are not the one it handled wait here for their own turn; bounded for long runs.
  const dismissedByModel = makeBoundedSet<bigint>(DISMISSED_REMEMBERED);

  const serve = async (
    title: string,
    content: string,
    origin: Origin | undefined,
    options: TurnOptions = {},
  ) => {
    if (!('provider' in model)) {
      await tell(origin, codeSpans(`I cannot think: ${model.problem}`));
      return undefined;
    }
    const placeholder = setup.progress?.open(origin);
    let end: TurnEnded | undefined;
    try {
      return await runAndAnswer(
        title,
        content,
        origin,
        model.provider,
        placeholder,
        options,
        reached => {
          end = reached;
        },
      );
    } finally {
      // Never an unfinished placeholder left behind, whatever ended the turn.
      if (placeholder !== undefined && !placeholder.finished)
        await placeholder.finish(textContent(closingLine(end)));
    }
  };

  const runAndAnswer = async (
    title: string,
    content: string,
    origin: Origin | undefined,
    provider: Provider,
    placeholder: Placeholder | undefined,
    { quiet = false, untrusted }: TurnOptions,
    ended: (end: TurnEnded) => void,
  ): Promise<TurnOutcome> => {
    const turnObserve = observeThrough(observe, placeholder);
    // A sender's turn sees its own thread only; the HOST's sees every turn (behaviour 9.1).
    const thread = threadSender(origin, hostName);
    const conversation =
      thread === undefined ? setup.conversation : threadOf(setup.threads, thread);
    // Redacted, then cut (behaviour 9.5): a cut through a secret would keep a piece the redactor misses.
    const turn = startTurn(conversation, title, cut(setup.redact(content), NOTICE_MAX_CHARS));
    const taint = taintOf(setup, origin, hostName, untrusted, { conversation, turn });
    // The one place the turn's powers come from: the facet of the party it serves.
    const facet = setup.facets.facetFor(origin);
    const context: BuiltinContext = {
      ...builtinContextFor(setup, facet, origin, placeholder, taint, thread),
      ...helpersOf(setup, facet, origin, taint),
    };
    setup.toolbox?.beginTurn(thread, rewritesBeginning(conversation, config.limits.keepTurns));
    // runTurn never throws: a failure part-way is an outcome like any other (one turn-end).
    const outcome = await runTurn({
      title,
      provider,
      systemPrompt: facet.prompt,
      conversation,
      turn,
      tools: turnTools(setup, facet, context),
      // The policy's seam, the loop's two hooks; the loop runs what it lets through.
      ...guardFor(setup, facet, origin, taint),
      beforeModelCall: steeringOf(setup, origin, taint),
      ...endWhenOf(config, origin),
      // A turn with no tool call and no word leaves the sender waiting with nothing.
      ...(quiet || origin === undefined ? {} : { silenceNudge: silenceNudge(origin) }),
      limits: config.limits,
      signal,
      observe: turnObserve,
    });
    // What the model did that the server keeps: the messages it dismissed wait for their own turn's end.
    for (const mark of outcome.marks)
      if (mark.kind === 'dismissed') dismissedByModel.add(mark.number);
    ended(
      await tellTurnEnd({
        outcome,
        thrown: outcome.thrown === undefined ? undefined : setup.redact(outcome.thrown),
        origin,
        turn,
        placeholder,
        asks: setup.asks,
        tell,
        redact: setup.redact,
        hostName,
        quiet,
      }),
    );
    fileTurn(setup, turn, origin, thread, taint.peerTurn);
    return outcome;
  };

  return { serve, takeDismissedByModel: number => dismissedByModel.delete(number) };
};
harden(makeTurnServer);
