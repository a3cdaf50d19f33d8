/**
 * Helper agents (docs/how-it-works.md, behaviour 7.9): the one owner of the
 * helpers running. The model makes one with mail's `helper` op: a task, the
 * powers it gets (./grant.ts: only what its maker holds), a budget
 * (./helper-budget.ts). It runs in the background (./run-helper.ts), so the
 * turn that made it goes on and the agent keeps serving mail; its end
 * arrives as a notice about the message its maker served (DONE, FAILED,
 * TIMED OUT, STOPPED), told to the model with its task, and from there to
 * whoever asked; a helper's helper tells the helper that made it while that
 * one still works. Its calls pass the agent's policy seam
 * (src/policy/guard-tool-call.ts): an approval it needs is asked of the HOST
 * naming the helper and its parent; it starts with what its maker's turn
 * had read (the taint rule, behaviour 9.10), and its result, model output
 * that may carry what it read, taints the turn that reads it as every
 * outcome does. Its exchanges go into the searchable history as the thread
 * of whoever asked. The running set is in the store: after a restart each
 * is told as UNKNOWN, and none runs again.
 */
import { makeError, q, X } from '@endo/errors';
import { E } from '@endo/far';
import type { Provider, ToolSchema } from '../../providers/types.js';
import type { AgentLimits } from '../config/config.js';
import type { PowersRef } from '../daemon/guest-powers.js';
import { decodeCall } from '../agent-tools/decode-call.js';
import type { Clock } from '../lifecycle/clock.js';
import type { Observe } from '../events/agent-events.js';
import { executeTool } from '../builtin-tools/execute-tool.js';
import { cut } from '../mail/message-record.js';
import type { NameOf } from '../mail/sender-names.js';
import type { ApprovalGate } from '../asks/approval-gate.js';
import type { CallParties } from '../policy/call-parties.js';
import { guardToolCall } from '../policy/guard-tool-call.js';
import type { StoreBoundary } from '../policy/store-boundary.js';
import type { ToolPolicy } from '../policy/tool-policy.js';
import { makeTurnTaint, type TurnTaint } from '../policy/turn-taint.js';
import type { HistoryArchive } from '../recall/history-archive.js';
import { whomToTell, type NoticeQueue, type Origin } from '../mail/origin.js';
import type { BuiltinContext, MakeHelper } from '../builtin-tools/builtin-context.js';
import { BUILTIN_NAMES } from '../agent-tools/builtin-schemas.js';
import { describeError } from '../../providers/describe-error.js';
import { showHidden } from '../encoding/show-hidden.js';
import { describeSlots, partyOf, slotRefusal } from '../peers/party-slots.js';
import { decideGrant, type HeldPowers } from './grant.js';
import { isBudgetItem } from '../agent-tools/budget-items.js';
import { readHelperBudget, type HelperBudget } from './helper-budget.js';
import type { HelperSettings } from '../settings/helper-settings.js';
import type { HelperStore, StoredHelper } from './helper-store.js';
import { narrowedPowers } from './narrowed-powers.js';
import { helperCallIds } from './helper-call-ids.js';
import type { Facet } from '../parties/facets.js';
import { helperPrompt, runHelper, type HelperEnd } from './run-helper.js';

const TASK_SHOWN = 120;
const RESULT_TOLD = 4_000;

/** Whose turn makes the helper: what it holds and whom it serves. */
interface MakerBinding {
  origin: Origin | undefined;
  /** The facet of the party whose turn makes it (src/parties/facets.ts): a helper holds a part of it, never more. */
  facet: Facet;
  /** The tool schemas a helper that makes one holds (its grant); the facet's when the turn makes it. */
  held?: () => readonly ToolSchema[];
  /** The pet-name paths a helper that makes one may reach; undefined for a turn, which holds its facet's names. */
  paths?: readonly (readonly string[])[];
  /** 0 for the agent, a helper's own depth for a helper. */
  depth: number;
  taint: TurnTaint;
  /** The helper that makes this one, for its helpers' results. */
  maker?: string;
}

export interface Helpers {
  makerFor(binding: MakerBinding): MakeHelper;
  /** Whether a helper still works for this message (it must stay answerable). */
  workFor(number: bigint): boolean;
  /** For help(): one line per helper running. */
  describe(): string[];
  /** The HOST's hand: "list" (the default), or "cancel" and an id. */
  control(action: string, id: string | undefined): string;
  /** Helpers a stopped run left in the store: each told as UNKNOWN to whom it served, none run again. */
  reportLost(): void;
  /** Stops every helper running (forget()); how many. */
  stopAll(): number;
}

export interface HelpersSetup {
  store: HelperStore;
  settings: HelperSettings;
  limits: AgentLimits;
  model: { provider: Provider } | { problem: string };
  agentName: string;
  hostName: string;
  powers: PowersRef;
  nameOf: NameOf;
  policy: ToolPolicy;
  approvals: ApprovalGate;
  boundary?: StoreBoundary;
  parties?: CallParties;
  notices: NoticeQueue;
  history?: Pick<HistoryArchive, 'add'>;
  quotaStop: (origin: Origin | undefined) => string | undefined;
  redact: (text: string) => string;
  observe: Observe;
  signal: AbortSignal;
  clock: Clock;
}

interface Running {
  stored: StoredHelper;
  /** The helper that made it, if a helper did: cancelling that one ends this one too. */
  maker?: string;
  cancel: AbortController;
  calls: number;
  /** Its own helpers' results, shown before its next model call. */
  inbox: string[];
}

const storedOrigin = (origin: Origin | undefined) =>
  origin === undefined ? {} : { origin: { number: String(origin.number), sender: origin.sender } };

const originOf = (stored: StoredHelper): Origin | undefined =>
  stored.origin === undefined
    ? undefined
    : { number: BigInt(stored.origin.number), sender: stored.origin.sender };

// The task is the model's words, in the agent's own messages and lists: hidden characters escaped.
const quoted = (task: string) => showHidden(JSON.stringify(cut(task, TASK_SHOWN)));

/** The notice a helper's end is told in: its first word says how it ended. */
const endNotice = (
  stored: StoredHelper,
  end: Exclude<HelperEnd, { status: 'stopped' }>,
  calls: number,
  toMaker: boolean,
) => {
  const about = `helper ${stored.id} (task ${quoted(stored.task)}, ${calls} model call${calls === 1 ? '' : 's'})`;
  const next = toMaker
    ? 'Next: use it for your task.'
    : `Next: check it, then tell ${whomToTell(originOf(stored))}.`;
  switch (end.status) {
    case 'done':
      return `DONE: ${about} handed back: ${cut(end.result, RESULT_TOLD)}\n${next}`;
    case 'failed':
      return `FAILED: ${about} could not finish: ${end.error}\n${next}`;
    case 'timeout':
      return `TIMED OUT: ${about} ran out of time before handing back a result.\n${next}`;
    case 'cancelled':
      return `STOPPED: ${about} was cancelled by the HOST.\n${next}`;
    case 'quota':
      return `STOPPED: ${about} stopped: this hour's budget is spent. ${end.why}\n${next}`;
    case 'budget':
      return `STOPPED: ${about} stopped: ${end.why}, its budget.\n${next}`;
    default:
      throw makeError(X`unknown end of a helper ${q(end satisfies never)}`);
  }
};

/** The agent's model, or another of its chain by name (a cheaper one); any other is refused, naming those it may use. */
const providerFor = (provider: Provider, model: string | undefined): Provider => {
  if (model === undefined || model === provider.model) return provider;
  const one = provider.only?.(model);
  if (one !== undefined) return one;
  const models = [...new Set([provider.model, ...(provider.chain ?? []).map(link => link.model)])];
  throw new Error(
    `model ${JSON.stringify(model)} is not one this agent may use (${models.join(', ')})`,
  );
};

const ageOf = (ms: number) => `${Math.max(0, Math.round(ms / 1000))} s`;

/** What a maker holds, for ./grant.ts: its schemas, its pet names (the agent's: its directory), the policy's words, the depth. */
const heldPowers = (setup: HelpersSetup, binding: MakerBinding): HeldPowers => ({
  schemas: (binding.held ?? binding.facet.held)(),
  hasPath: async path => {
    if (binding.paths !== undefined)
      return binding.paths.some(
        given => given.length <= path.length && given.every((part, index) => path[index] === part),
      );
    // A path through a directory that is not there is not held (the daemon throws for it).
    return Promise.resolve(E(binding.facet.powers).has(...path)).catch(() => false);
  },
  whyNotHeld: name =>
    (BUILTIN_NAMES.has(name) || binding.facet.tools.find(name) !== undefined) &&
    !setup.policy.allows([name])
      ? setup.policy.refusal([name])
      : undefined,
  canNest: binding.depth + 1 < setup.settings.depth,
  depthLimit: `helpers of helpers go no deeper than LAL_HELPER_DEPTH (${setup.settings.depth})`,
});

/** Runs one helper (./run-helper.ts) with a context made of what it was granted. */
const startHelper = (
  setup: HelpersSetup,
  own: { makerFor: (binding: MakerBinding) => MakeHelper },
  stored: StoredHelper,
  run: Running,
  binding: MakerBinding,
  grant: { schemas: ToolSchema[]; paths: string[][] },
  budget: HelperBudget,
  provider: Provider,
) => {
  const origin = binding.origin;
  const taint = makeTurnTaint(origin, setup.hostName, sender => setup.policy.trusts(sender));
  const read = binding.taint.read();
  // What its maker had read may have written its task: it starts as tainted as its maker.
  if (read !== undefined) taint.note(read);
  // The task is the model's words, inside the agent's own approval request: escaped and marked (behaviour 9.12).
  const by = `${setup.agentName}'s helper ${stored.id} (task, in the model's words: ${quoted(stored.task)})`;
  const context: BuiltinContext = {
    powers: narrowedPowers(binding.facet.powers, grant.paths) as unknown as PowersRef,
    nameOf: setup.nameOf,
    proposals: binding.facet.proposals,
    requests: binding.facet.requests,
    tools: binding.facet.tools,
    origin,
    hostName: setup.hostName,
    helpers: own.makerFor({
      origin,
      facet: binding.facet,
      held: () => grant.schemas,
      paths: grant.paths,
      depth: stored.depth,
      taint,
      maker: stored.id,
    }),
  };
  const title = `helper ${stored.id}: ${quoted(stored.task)}`;
  return runHelper({
    title,
    task: `Your task, from ${setup.agentName}: ${stored.task}`,
    provider,
    systemPrompt: helperPrompt(setup.agentName),
    schemas: grant.schemas,
    decodeCall: call =>
      decodeCall(
        call,
        setup.redact,
        name => binding.facet.tools.find(name)?.schema.function.parameters,
      ),
    guard: guardToolCall({
      policy: setup.policy,
      gate: { ...setup.approvals, ask: ask => setup.approvals.ask({ ...ask, by }) },
      origin,
      ...(setup.boundary === undefined
        ? {}
        : {
            boundary:
              binding.facet.party.kind === 'host'
                ? setup.boundary
                : setup.boundary.within(binding.facet.powers),
          }),
      ...(setup.parties === undefined ? {} : { taint: { turn: taint, parties: setup.parties } }),
    }),
    execute: (decoded, offered, stop) => executeTool(decoded, context, offered, stop),
    takeNotices: () => run.inbox.splice(0, run.inbox.length),
    budget,
    limits: setup.limits,
    signal: setup.signal,
    cancel: run.cancel.signal,
    clock: setup.clock,
    quotaStop: () => setup.quotaStop(origin),
    // Its calls' ids unique to the agent, though its conversation is not the agent's.
    observe: helperCallIds(stored.id, setup.observe),
    onModelCall: () => {
      run.calls += 1;
    },
  });
};

/** The HOST's hand on the helpers running (list, cancel, forget()'s stop) and help()'s lines. */
const makeHand = (setup: HelpersSetup, running: Map<string, Running>) => {
  const { settings, clock } = setup;
  const describe = () =>
    [...running.values()].map(
      ({ stored, calls }) =>
        `${stored.id}: ${quoted(stored.task)}, given ${stored.granted.length === 0 ? 'nothing' : stored.granted.join(', ')}; ${calls} model call${calls === 1 ? '' : 's'}, ${ageOf(clock.now() - stored.startedAt)}${stored.origin === undefined ? '' : `, for ${stored.origin.sender} #${stored.origin.number}`}${stored.depth > 1 ? `, depth ${stored.depth}` : ''}`,
    );

  const describeWithSlots = () => {
    const lines = describe();
    if (lines.length === 0) return lines;
    const parties = [...running.values()].map(each => partyOf(each.stored.origin, setup.hostName));
    return [
      ...lines,
      `per party (LAL_MAX_HELPERS each): ${describeSlots(parties, setup.hostName, settings.max)}`,
    ];
  };

  const control = (action: string, id: string | undefined): string => {
    if (action === 'list') {
      const lines = describeWithSlots();
      return lines.length === 0 ? 'No helpers are running.' : lines.join('\n');
    }
    if (action !== 'cancel') throw new Error(`helpers: no action "${action}": use list or cancel`);
    const run = id === undefined ? undefined : running.get(id);
    if (run === undefined)
      throw new Error(
        `helpers: no helper ${JSON.stringify(id ?? '')} is running${running.size === 0 ? '' : ` (running: ${[...running.keys()].join(', ')})`}`,
      );
    const ended = cancelWithItsOwn(run.stored.id);
    const own = ended.length - 1;
    return `Cancelled ${run.stored.id}: ${quoted(run.stored.task)}${own === 0 ? '' : `, and the ${own} helper${own === 1 ? '' : 's'} it made (${ended.slice(1).join(', ')})`}; whoever made it is told.`;
  };

  /** Cancels a helper and every helper it made, theirs too; the ids ended, its own first. */
  const cancelWithItsOwn = (id: string): string[] => {
    const ended = [id];
    for (let at = 0; at < ended.length; at += 1)
      for (const each of running.values())
        if (each.maker === ended[at] && !ended.includes(each.stored.id)) ended.push(each.stored.id);
    for (const each of ended) running.get(each)?.cancel.abort();
    return ended;
  };

  /** forget(): every helper works for a turn being forgotten; each is stopped and told as cancelled. */
  const stopAll = (): number => {
    const all = [...running.values()];
    for (const each of all) each.cancel.abort();
    return all.length;
  };

  return { describe: describeWithSlots, control, stopAll };
};

export const makeHelpers = (setup: HelpersSetup): Helpers => {
  const { store, settings, clock } = setup;
  const running = new Map<string, Running>();

  const forget = (id: string) => {
    running.delete(id);
    const at = store.running.findIndex(entry => entry.id === id);
    if (at >= 0) store.running.splice(at, 1);
  };

  const tellEnd = (
    stored: StoredHelper,
    end: Exclude<HelperEnd, { status: 'stopped' }>,
    calls: number,
    maker?: string,
  ) => {
    const makerRun = maker === undefined ? undefined : running.get(maker);
    const text = setup.redact(endNotice(stored, end, calls, makerRun !== undefined));
    if (makerRun !== undefined) makerRun.inbox.push(text);
    else setup.notices.push({ id: stored.id, text, origin: originOf(stored) });
  };

  const makerFor =
    (binding: MakerBinding): MakeHelper =>
    async ask => {
      const { model } = setup;
      if (!('provider' in model)) throw new Error(`no model to run a helper: ${model.problem}`);
      // Each party its own slots: a peer's helpers never take the HOST's (behaviour 9.12).
      const full = slotRefusal({
        held: [...running.values()].map(each => partyOf(each.stored.origin, setup.hostName)),
        party: partyOf(binding.origin, setup.hostName),
        max: settings.max,
        what: 'helpers are running',
        setting: 'LAL_MAX_HELPERS',
        free: 'wait for one to end',
      });
      if (full !== undefined) throw new Error(full);
      const budget = readHelperBudget(ask.grant.filter(isBudgetItem), {
        modelCalls: setup.limits.maxModelCalls,
        ms: settings.seconds * 1000,
      });
      const provider = providerFor(model.provider, budget.model);
      const grant = await decideGrant(
        ask.grant.filter(item => !isBudgetItem(item)),
        heldPowers(setup, binding),
      );
      store.seq += 1;
      const stored: StoredHelper = {
        id: `h${store.seq}`,
        task: ask.task,
        granted: [...grant.named, ...grant.paths.map(path => path.join('/'))],
        ...storedOrigin(binding.origin),
        startedAt: clock.now(),
        depth: binding.depth + 1,
      };
      const run: Running = {
        stored,
        ...(binding.maker === undefined ? {} : { maker: binding.maker }),
        cancel: new AbortController(),
        calls: 0,
        inbox: [],
      };
      store.running.push(stored);
      running.set(stored.id, run);
      // In the background: the turn that made it goes on (behaviour 7.9).
      void startHelper(setup, { makerFor }, stored, run, binding, grant, budget, provider).then(
        ({ end, turn }) => {
          // Stopped with the agent: left in the store, for the next run to tell as lost.
          if (end.status === 'stopped') {
            running.delete(stored.id);
            return;
          }
          forget(stored.id);
          // Its exchanges are kept in the thread of whoever asked (recall finds them there and in the HOST's).
          setup.history?.add(turn, originOf(stored));
          tellEnd(stored, end, run.calls, binding.maker);
        },
        (error: unknown) => {
          forget(stored.id);
          tellEnd(
            stored,
            { status: 'failed', error: describeError(error) },
            run.calls,
            binding.maker,
          );
        },
      );
      return harden({
        status: 'pending',
        helperId: stored.id,
        granted: stored.granted,
        ...(budget.cut.length === 0 ? {} : { budgetCut: budget.cut }),
        note: `Helper ${stored.id} works on it in the background. Its end comes as a notice (DONE with its result, FAILED, TIMED OUT or STOPPED); do not wait for it.`,
      });
    };

  const hand = makeHand(setup, running);

  const reportLost = () => {
    for (const stored of store.running.splice(0, store.running.length)) {
      setup.notices.push({
        id: stored.id,
        text: `UNKNOWN: helper ${stored.id} (task ${quoted(stored.task)}) was working when I restarted; it was lost and did not run again.\nNext: make a new helper if the task is still needed, and tell ${whomToTell(originOf(stored))}.`,
        origin: originOf(stored),
      });
    }
  };

  const workFor = (number: bigint) =>
    [...running.values()].some(({ stored }) => stored.origin?.number === String(number));

  return { makerFor, workFor, reportLost, ...hand };
};
harden(makeHelpers);
