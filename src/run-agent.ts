/**
 * The agent at work: follows the guest's mail, runs one turn per message
 * (and per batch of proposal outcomes) on a single serving loop, remembers
 * what it handled, and stops cleanly when its context is cancelled.
 */
import { E } from '@endo/far';
import type { Env, Provider } from '../providers/types.js';
import type { PowersRef } from './guest-powers.js';
import { readAgentConfig } from './config.js';
import type { Log } from './log.js';
import { makeStatusBoard, type StatusBoard } from './agent-status.js';
import { makeAgentOutput } from './agent-output.js';
import { watchCancellation } from './watch-cancellation.js';
import { makeCancelHooks } from './cancel-hooks.js';
import { greeting } from './system-prompt.js';
import { describeModelChoice } from '../providers/describe-model-choice.js';
import { makeSenderNames } from './mail/sender-names.js';
import { messageNotice } from './mail/message-notice.js';
import { makeRevisionGate } from './mail/revision-gate.js';
import { followMailWithRetry } from './mail/follow-mail-with-retry.js';
import { isMailboxLoadFailure, reportMailboxLoadFailure } from './mail/mailbox-load-failure.js';
import { makeTellSender } from './mail/tell-sender.js';
import { cut, isProposalType, messageKey, packageText, type MessageRecord } from './mail/message-record.js';
import { byOrigin, makeNoticeQueue, type Origin } from './notices.js';
import { makeProposalTracker } from './proposals/proposal-tracker.js';
import { makeRequestTracker } from './requests/request-tracker.js';
import { makeApprovalGate } from './policy/approval-gate.js';
import { readToolPolicy } from './policy/tool-policy.js';
import { BUILTIN_NAMES } from './tools/builtin-schemas.js';
import { makeToolRegistry, TOOLS_DIRECTORY } from './tools/fae-tool-registry.js';
import { adoptIntroducedTools } from './tools/adopt-introduced-tools.js';
import { loadMemory, MEMORY_NAME, saveMemory, trackHandled } from './memory/agent-memory.js';
import type { Observe } from './loop/agent-events.js';
import { makeTurnServer } from './serve-turn.js';
import { clause } from './turn-ending.js';
import { codeSpans } from './mail/code-spans.js';
import { makeWorkQueue } from './work-queue.js';
import { makeDaemonAdapter } from './daemon/daemon-adapter.js';
import { daemonStatus } from './daemon/daemon-status.js';
import { makeHostApprovedEvaluation, readDirectEvaluation } from './approval/host-approved-evaluation.js';
import { systemClock, type Clock } from './clock.js';
import { makeLivePlaceholders, readLiveProgress } from './progress/live-placeholders.js';
import { emptyConversationInPlace } from './history/conversation.js';
import { makeWakeUps, originOf, wakeUpNotice } from './schedule/wake-ups.js';
import { describeQuota } from './usage/hourly-quota.js';
import { meteredProvider } from './usage/metered-provider.js';
import { makeQuotaWaits, quotaNotice } from './usage/quota-waits.js';
import { describeUsage, emptyUsage, recordUsage } from './usage/usage-ledger.js';
import { makeToldToWait } from './usage/told-to-wait.js';
import { makeQuotaStop } from './usage/quota-stop.js';
import { makePendingAsks } from './pending/pending-asks.js';
import { finishEarlierAsk } from './pending/resume-pending-asks.js';

export interface AgentOptions {
  powers: PowersRef;
  /** The caplet's context: a remote (or local) object with whenCancelled(). */
  context: unknown;
  env: Env;
  /** Where parts of the agent say how they stand, for help(). */
  status?: StatusBoard;
  /** Makes the model back end; `createProvider` of providers/ by default. */
  createProvider: (env: Env, tools: { log: Log }) => Provider | Promise<Provider>;
  /** Overrides the log (the default writes redacted lines to stderr). */
  log?: Log;
  /** Told of every step; for hosts that show progress. */
  observe?: Observe;
  /** Settles when a local owner wants the agent to stop. */
  cancelled?: Promise<unknown>;
  /** Time for quotas and wake-ups; the system's by default (tests pass their own). */
  clock?: Clock;
}

export interface RunningAgent {
  /** Settles when the agent has stopped (after cancellation). */
  stopped: Promise<void>;
  cancel(reason?: unknown): void;
  /** Clears the conversation, its digest and the usage (not the handled message ids), between turns. */
  forget(): Promise<string>;
  /** How many hooks wait for cancellation (a leak check for tests). */
  cancelHooks(): number;
}

type Work =
  | { kind: 'mail'; message: MessageRecord }
  | { kind: 'notices' }
  | { kind: 'wake'; id: string }
  | { kind: 'forget'; done: (said: string) => void };

const describeError = (error: unknown): string => (error instanceof Error ? error.message : String(error));

export const runAgent = (options: AgentOptions): RunningAgent => {
  const { powers, env } = options;
  const config = readAgentConfig(env);
  const status = options.status ?? makeStatusBoard();
  status.section('Agent', () => [`persona: ${config.persona}`, ...config.problems.map(problem => `configuration: ${problem}`)]);
  const { log, observe, redact } = makeAgentOutput(env, options);
  const controller = new AbortController();
  const clock = options.clock ?? systemClock;
  const queue = makeWorkQueue<Work>();
  const onCancel = makeCancelHooks();
  const cancel = (reason?: unknown) => {
    if (controller.signal.aborted) return;
    log(`cancelled${reason === undefined ? '' : `: ${describeError(reason)}`}`);
    controller.abort();
    queue.close();
    onCancel.run(reason);
  };
  watchCancellation(options.context, options.cancelled, cancel);

  const serve = async (): Promise<void> => {
    const daemon = await makeDaemonAdapter(powers, log);
    const directEvaluation = readDirectEvaluation(env);
    status.section('Daemon', () => daemonStatus(daemon, directEvaluation));
    const nameOf = makeSenderNames(powers, daemon);
    const tell = makeTellSender(powers, log, redact, daemon.names.host);
    const memory = await loadMemory(powers, log, clock.now());
    let model: { provider: Provider } | { problem: string };
    try {
      // Every answered call is counted, under the model that served it.
      const provider = await options.createProvider(env, { log });
      model = {
        provider: meteredProvider(provider, (served, result) => recordUsage(memory.usage, served, result.usage, clock.now())),
      };
    } catch (error) {
      model = { problem: redact(describeError(error)) };
    }
    if ('provider' in model) {
      const provider = model.provider;
      status.section('Model', () => [describeModelChoice(provider)]);
    }
    status.section('Usage', () => [...describeUsage(memory.usage), ...describeQuota(memory.usage, config.quota, clock.now())]);
    const quotaWaits = makeQuotaWaits<Work>({ clock, quota: config.quota, ledger: () => memory.usage, requeue: work => queue.push(work) });
    const toldToWait = makeToldToWait(memory.toldToWait);
    const wakeUps = makeWakeUps({
      stored: memory.wakeUps,
      clock,
      max: config.limits.maxWakeUps,
      onDue: id => queue.push({ kind: 'wake', id }),
    });
    status.section('Wake-ups', () => wakeUps.describe());
    onCancel.add(() => {
      quotaWaits.stop();
      wakeUps.stop();
    });
    const handled = trackHandled(memory, config.limits.rememberHandled);
    const revisions = makeRevisionGate();
    const tools = makeToolRegistry({ powers, log, builtinNames: BUILTIN_NAMES, lookupTimeoutMs: config.limits.toolLookupTimeoutMs });
    status.section('Tools refused', () => tools.refused().map(({ petName, reason }) => `${TOOLS_DIRECTORY}/${petName}: ${reason}`));
    // Outcomes not yet shown to the model are kept in the store, and those from before a restart queued again.
    const notices = makeNoticeQueue(() => queue.push({ kind: 'notices' }), memory.notices);
    // Requests, approvals and proposals still waiting for an answer, kept in the store over restarts.
    const asks = makePendingAsks({ store: memory.asks, powers, log, save: () => saveMemory(powers, memory, log, redact) });
    // Asks still pending when this run stops are the next run's to follow.
    onCancel.add(() => asks.stop());
    const proposals =
      daemon.generation === 'newest'
        ? makeHostApprovedEvaluation({ powers, log, notices, hostName: daemon.names.host, who: `The ${config.persona} agent`, direct: directEvaluation, asks })
        : makeProposalTracker({ powers, log, notices, asks });
    const requests = makeRequestTracker({ powers, notices, asks });
    const policy = readToolPolicy(env);
    const approvals = makeApprovalGate({ powers, notices, asks, agentName: config.persona === 'fae' ? 'Fae' : 'Lal', approver: daemon.names.host });
    status.section('Tool policy', () => [
      ...policy.describe(),
      ...approvals.pending().map(entry => `waiting for HOST's approval ${entry.approvalId}: ${entry.action}`),
    ]);
    const liveProgress = readLiveProgress(env) && daemon.canEdit;
    status.section('Live progress', () => [
      liveProgress ? `on: answers to ${daemon.names.host} fill in one message as the turn goes (LAL_PROGRESS=0 turns it off)` : 'off',
    ]);
    const progress = makeLivePlaceholders({ powers, daemon, clock, log, enabled: liveProgress, directEvaluation });
    const turns = makeTurnServer({
      model,
      config,
      conversation: memory.conversation,
      powers,
      nameOf,
      tools,
      proposals,
      requests,
      policy,
      approvals,
      wakeUps,
      notices,
      tell,
      observe,
      redact,
      signal: controller.signal,
      daemon,
      directEvaluation,
      quotaStop: makeQuotaStop(() => quotaWaits.check(), clock),
      progress,
    });
    try {
      const moved = await adoptIntroducedTools({ powers, log, reserved: new Set([MEMORY_NAME]) });
      if (moved.length > 0) log(`moved introduced tools into tools/: ${moved.join(', ')}`);
    } catch (error) {
      log(`could not prepare tools/: ${describeError(error)}`);
    }

    const hello = [greeting(config.persona), ...config.problems];
    if ('problem' in model) hello.push(`I cannot think yet: ${model.problem}`);
    else hello.push(describeModelChoice(model.provider));
    await Promise.resolve(E(powers).send(daemon.names.host, [codeSpans(hello.join(' '))], [], [])).catch((error: unknown) =>
      log(`could not greet ${daemon.names.host}: ${describeError(error)}`),
    );

    const safeDismiss = (number: unknown) =>
      typeof number === 'bigint' ? Promise.resolve(E(powers).dismiss(number)).catch(() => {}) : Promise.resolve();

    /** Dismisses a handled message, unless the model did, or a proposal or request made for it awaits its outcome. */
    const finishWith = async (number: bigint) => {
      if (turns.takeDismissedByModel(number) || proposals.hasPendingFor(number) || requests.hasPendingFor(number) || approvals.hasPendingFor(number) || asks.hasPendingFor(number)) return;
      // An outcome that settled after the model's last call is still to be told: keep its message.
      if (notices.waitsFor(number)) return;
      await safeDismiss(number);
    };

    /**
     * Keeps the tools offered up to date without making the sender wait: the
     * first check (nothing known yet) comes before the first turn; after
     * that, tools/ is checked after each turn, beside the dismissal and the
     * memory write. adoptTool brings in a tool at once itself.
     */
    let toolsKnown = false;
    const checkTools = async (): Promise<void> => {
      try {
        await tools.refresh();
        toolsKnown = true;
      } catch (error) {
        log(`could not check tools/: ${describeError(error)}`);
      }
    };
    const toolsBeforeTurn = () => (toolsKnown ? Promise.resolve() : checkTools());

    const handleMail = async (message: MessageRecord): Promise<void> => {
      const key = messageKey(message);
      const showing = revisions.classify(key, message, key !== undefined && handled.has(key));
      // Still being written (done: false), or an answered message amended (told in the next notice): no turn.
      if (showing === 'wait' || showing === 'amended') return;
      if (showing === 'replayed') {
        // Replayed after a restart: already answered (kept while something asked for it is still pending).
        if (typeof message.number === 'bigint') await finishWith(message.number);
        else await safeDismiss(message.number);
        return;
      }
      if (typeof message.number !== 'bigint') {
        log(`skipped a message without a number (type ${String(message.type)})`);
        return;
      }
      // A known sender's name is cached; tools/ is checked after the turn.
      const [sender] = await Promise.all([nameOf(message.from), toolsBeforeTurn()]);
      const origin: Origin = { number: message.number, sender };
      const wait = quotaWaits.check();
      if (wait !== undefined) {
        // The message waits (undismissed, so a restart finds it too) and its sender hears when.
        quotaWaits.hold({ kind: 'mail', message }, wait);
        if (toldToWait.tellOnce(key ?? String(message.number))) await tell(origin, quotaNotice(wait, message.number, clock.now()));
        return;
      }
      toldToWait.served(key ?? String(message.number));
      const preview = message.type === 'package' ? packageText(message) : String(message.type);
      const title = `#${message.number} from ${sender}: ${JSON.stringify(cut(redact(preview).replace(/\s+/g, ' '), 160))}`;
      const outcome = await turns.serve(title, revisions.takeAmendedNote() + messageNotice(config.persona, message, sender), origin);
      if (outcome?.stopReason === 'cancelled') return;
      // Stopped part-way by a spent budget (its sender told when): held, and served again once it frees up.
      if (outcome?.stopReason === 'quota') {
        toldToWait.tellOnce(key ?? String(message.number));
        quotaWaits.holdUntilFree({ kind: 'mail', message });
        return;
      }
      if (key !== undefined) handled.add(key);
      revisions.answered(key, message);
      await Promise.all([finishWith(message.number), checkTools()]);
    };

    const handleNotices = async (): Promise<void> => {
      const wait = quotaWaits.check();
      if (wait !== undefined) {
        quotaWaits.hold({ kind: 'notices' }, wait);
        return;
      }
      // One turn per message the outcomes belong to: each origin's sender is answered about its own.
      const groups = byOrigin(notices.take());
      for (const [index, { origin, notices: arrived }] of groups.entries()) {
        const title = `outcome: ${arrived.map(notice => `${notice.id} ${notice.text.split(':')[0]}`).join(', ')}`;
        await toolsBeforeTurn();
        const outcome = await turns.serve(title, arrived.map(notice => notice.text).join('\n\n'), origin);
        if (outcome?.stopReason === 'quota') {
          // Stopped part-way by a spent budget: these outcomes and the rest wait for it to free up.
          for (const group of groups.slice(index)) group.notices.forEach(notice => notices.push(notice));
          return;
        }
        // The message these outcomes belong to can go once nothing more is pending for it.
        await Promise.all([origin === undefined ? undefined : finishWith(origin.number), checkTools()]);
      }
    };

    const handleWake = async (id: string): Promise<void> => {
      const wait = quotaWaits.check();
      if (wait !== undefined) {
        quotaWaits.hold({ kind: 'wake', id }, wait);
        return;
      }
      // Taken out of the store first: a wake-up that fails is not repeated forever.
      const entry = wakeUps.take(id);
      if (entry === undefined) return;
      await toolsBeforeTurn();
      const outcome = await turns.serve(`wake-up ${entry.id}: ${JSON.stringify(cut(entry.note, 160))}`, wakeUpNotice(entry), originOf(entry));
      // Stopped part-way by a spent budget: due again, and held until the budget frees up.
      if (outcome?.stopReason === 'quota') wakeUps.putBack(entry);
      await checkTools();
    };

    const forget = (): string => {
      const turnsForgotten = memory.conversation.turns.length;
      const calls = Object.values(memory.usage.byModel).reduce((sum, usage) => sum + usage.calls, 0);
      emptyConversationInPlace(memory.conversation);
      memory.usage = emptyUsage(clock.now());
      log('memory cleared by forget()');
      return `Forgot ${turnsForgotten} turn${turnsForgotten === 1 ? '' : 's'} of conversation, the digest, and the usage of ${calls} model call${calls === 1 ? '' : 's'}. The ids of handled messages and the pending wake-ups are kept.`;
    };

    // Wake-ups stored before a restart are armed again (those due meanwhile fire at once).
    wakeUps.armAll();
    // Asks stored before a restart are followed again through their copies in the inbox.
    await asks.resume(finishEarlierAsk({ requests, approvals, proposals }));

    const follower = followMailWithRetry({
      powers,
      selfId: undefined,
      open: daemon.follow,
      isOwn: daemon.isOwn,
      log,
      onFailure: async (error, retryInMs) => {
        log(`following mail failed: ${redact(describeError(error))}; trying again in ${retryInMs} ms, then less and less often`);
        if (isMailboxLoadFailure(error)) await reportMailboxLoadFailure({ powers, log, pendingSources: proposals.pendingSources(), retrying: true });
      },
      onResume: failed => log(`following mail again after ${failed} failed attempt(s)`),
      onMail: message => queue.push({ kind: 'mail', message }),
      onOwn: message => {
        // The copy of a request still waiting for its answer stays (a restart follows it).
        if (asks.claimOwnCopy(message)) return;
        if (message.type === 'eval-proposal-proposer') proposals.noteOwnCopy(message);
        // A live-progress placeholder stays until its last edit.
        else if (progress.handlesOwnCopy(message)) return;
        // Our own sent copies would otherwise fill the inbox forever.
        else if (!isProposalType(message.type)) void safeDismiss(message.number);
      },
    });
    onCancel.add(() => follower.stop());
    if (controller.signal.aborted) follower.stop();
    const following = follower.done.catch((error: unknown) => {
      if (!controller.signal.aborted) log(`stopped following mail: ${describeError(error)}`);
      queue.close();
    });

    for (;;) {
      const work = await queue.take();
      if (work === undefined || controller.signal.aborted) break;
      try {
        if (work.kind === 'mail') await handleMail(work.message);
        else if (work.kind === 'wake') await handleWake(work.id);
        else if (work.kind === 'forget') work.done(forget());
        else await handleNotices();
      } catch (error) {
        // One bad message never stops the loop, and its sender still hears back.
        const why = redact(describeError(error));
        log(`a turn failed: ${why}`);
        if (work.kind === 'mail' && typeof work.message.number === 'bigint') {
          const sender = await Promise.resolve(nameOf(work.message.from)).catch(() => 'HOST');
          await tell({ number: work.message.number, sender }, codeSpans(`I could not answer this: the agent failed: ${clause(why)}. Send it again if you still need it.`));
          await safeDismiss(work.message.number);
        }
      }
      if (!controller.signal.aborted) await saveMemory(powers, memory, log, redact);
    }
    await following;
  };

  const stopped = serve().catch(async (error: unknown) => {
    log(`the agent stopped: ${redact(describeError(error))}`);
    // Its powers fail to load: say what to do, to HOST if it can still be reached, else in the log.
    if (isMailboxLoadFailure(error)) await reportMailboxLoadFailure({ powers, log, pendingSources: [], retrying: false });
  });
  const forgetMemory = () =>
    new Promise<string>((resolve, reject) => {
      if (controller.signal.aborted) {
        reject(new Error('the agent has stopped'));
        return;
      }
      // Between turns, on the serving loop: never under a turn in progress.
      const unhook = onCancel.add(() => reject(new Error('the agent stopped before it could forget')));
      queue.push({
        kind: 'forget',
        done: said => {
          unhook();
          resolve(said);
        },
      });
    });
  return { stopped, cancel, forget: forgetMemory, cancelHooks: () => onCancel.size() };
};
