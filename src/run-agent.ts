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
import { greeting } from './system-prompt.js';
import { describeModelChoice } from '../providers/describe-model-choice.js';
import { makeSenderNames } from './mail/sender-names.js';
import { messageNotice } from './mail/message-notice.js';
import { followMail } from './mail/follow-mail.js';
import { makeTellSender } from './mail/tell-sender.js';
import { cut, isProposalType, messageKey, packageText, type MessageRecord } from './mail/message-record.js';
import { makeNoticeQueue, type Origin } from './notices.js';
import { makeProposalTracker } from './proposals/proposal-tracker.js';
import { makeRequestTracker } from './requests/request-tracker.js';
import { makeApprovalGate } from './policy/approval-gate.js';
import { readToolPolicy } from './policy/tool-policy.js';
import { BUILTIN_NAMES } from './tools/builtin-schemas.js';
import { makeToolRegistry } from './tools/fae-tool-registry.js';
import { adoptIntroducedTools } from './tools/adopt-introduced-tools.js';
import { loadMemory, MEMORY_NAME, saveMemory, trackHandled } from './memory/agent-memory.js';
import type { Observe } from './loop/agent-events.js';
import { makeTurnServer } from './serve-turn.js';
import { makeWorkQueue } from './work-queue.js';
import { makeDaemonAdapter } from './daemon/daemon-adapter.js';
import { daemonStatus } from './daemon/daemon-status.js';
import { makeHostApprovedEvaluation, readDirectEvaluation } from './approval/host-approved-evaluation.js';

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
}

export interface RunningAgent {
  /** Settles when the agent has stopped (after cancellation). */
  stopped: Promise<void>;
  cancel(reason?: unknown): void;
}

type Work = { kind: 'mail'; message: MessageRecord } | { kind: 'notices' };

const describeError = (error: unknown): string => (error instanceof Error ? error.message : String(error));

export const runAgent = (options: AgentOptions): RunningAgent => {
  const { powers, env } = options;
  const config = readAgentConfig(env);
  const status = options.status ?? makeStatusBoard();
  status.section('Agent', () => [`persona: ${config.persona}`, ...config.problems.map(problem => `configuration: ${problem}`)]);
  const { log, observe, redact } = makeAgentOutput(env, options);
  const controller = new AbortController();
  const queue = makeWorkQueue<Work>();
  const onCancel: ((reason: unknown) => void)[] = [];
  const cancel = (reason?: unknown) => {
    if (controller.signal.aborted) return;
    log(`cancelled${reason === undefined ? '' : `: ${describeError(reason)}`}`);
    controller.abort();
    queue.close();
    for (const hook of onCancel) hook(reason);
  };
  watchCancellation(options.context, options.cancelled, cancel);

  const serve = async (): Promise<void> => {
    const daemon = await makeDaemonAdapter(powers, log);
    const directEvaluation = readDirectEvaluation(env);
    status.section('Daemon', () => daemonStatus(daemon, directEvaluation));
    const nameOf = makeSenderNames(powers, daemon);
    const tell = makeTellSender(powers, log, redact, daemon.names.host);
    let model: { provider: Provider } | { problem: string };
    try {
      model = { provider: await options.createProvider(env, { log }) };
    } catch (error) {
      model = { problem: redact(describeError(error)) };
    }
    const memory = await loadMemory(powers, log);
    const handled = trackHandled(memory, config.limits.rememberHandled);
    const tools = makeToolRegistry({ powers, log, builtinNames: BUILTIN_NAMES });
    const notices = makeNoticeQueue(() => queue.push({ kind: 'notices' }));
    const proposals =
      daemon.generation === 'newest'
        ? makeHostApprovedEvaluation({ powers, log, notices, hostName: daemon.names.host, who: `The ${config.persona} agent`, direct: directEvaluation })
        : makeProposalTracker({ powers, log, notices });
    const requests = makeRequestTracker({ powers, notices });
    const policy = readToolPolicy(env);
    const approvals = makeApprovalGate({ powers, notices, agentName: config.persona === 'fae' ? 'Fae' : 'Lal', approver: daemon.names.host });
    status.section('Tool policy', () => [
      ...policy.describe(),
      ...approvals.pending().map(entry => `waiting for HOST's approval ${entry.approvalId}: ${entry.action}`),
    ]);
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
      notices,
      tell,
      observe,
      redact,
      signal: controller.signal,
      daemon,
      directEvaluation,
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
    await Promise.resolve(E(powers).send(daemon.names.host, [hello.join(' ')], [], [])).catch((error: unknown) =>
      log(`could not greet ${daemon.names.host}: ${describeError(error)}`),
    );

    const safeDismiss = (number: unknown) =>
      typeof number === 'bigint' ? Promise.resolve(E(powers).dismiss(number)).catch(() => {}) : Promise.resolve();

    /** Dismisses a handled message, unless the model did, or a proposal or request made for it awaits its outcome. */
    const finishWith = async (number: bigint) => {
      if (turns.takeDismissedByModel(number) || proposals.hasPendingFor(number) || requests.hasPendingFor(number) || approvals.hasPendingFor(number)) return;
      // An outcome that settled after the model's last call is still to be told: keep its message.
      if (notices.waitsFor(number)) return;
      await safeDismiss(number);
    };

    const handleMail = async (message: MessageRecord): Promise<void> => {
      const key = messageKey(message);
      if (key !== undefined && handled.has(key)) {
        // Replayed after a restart: already answered.
        await safeDismiss(message.number);
        return;
      }
      if (typeof message.number !== 'bigint') {
        log(`skipped a message without a number (type ${String(message.type)})`);
        return;
      }
      // Tools are discovered at the start of every turn, alongside naming the sender.
      const [sender] = await Promise.all([nameOf(message.from), tools.refresh()]);
      const origin: Origin = { number: message.number, sender };
      const preview = message.type === 'package' ? packageText(message) : String(message.type);
      const title = `#${message.number} from ${sender}: ${JSON.stringify(cut(preview.replace(/\s+/g, ' '), 160))}`;
      const outcome = await turns.serve(title, messageNotice(config.persona, message, sender), origin);
      if (outcome?.stopReason === 'cancelled') return;
      if (key !== undefined) handled.add(key);
      await finishWith(message.number);
    };

    const handleNotices = async (): Promise<void> => {
      const arrived = notices.take();
      if (arrived.length === 0) return;
      const origin = arrived.find(notice => notice.origin !== undefined)?.origin;
      const title = `outcome: ${arrived.map(notice => `${notice.id} ${notice.text.split(':')[0]}`).join(', ')}`;
      await tools.refresh();
      await turns.serve(title, arrived.map(notice => notice.text).join('\n\n'), origin);
      // The messages these outcomes belong to can go once nothing more is pending for them.
      const origins = new Set(arrived.flatMap(notice => (notice.origin === undefined ? [] : [notice.origin.number])));
      await Promise.all([...origins].map(finishWith));
    };

    const follower = followMail({
      powers,
      selfId: undefined,
      open: daemon.follow,
      isOwn: daemon.isOwn,
      log,
      onMail: message => queue.push({ kind: 'mail', message }),
      onOwn: message => {
        if (message.type === 'eval-proposal-proposer') proposals.noteOwnCopy(message);
        // Our own sent copies would otherwise fill the inbox forever.
        else if (!isProposalType(message.type)) void safeDismiss(message.number);
      },
    });
    onCancel.push(() => follower.stop());
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
        else await handleNotices();
      } catch (error) {
        // One bad message never stops the loop.
        log(`a turn failed: ${redact(describeError(error))}`);
      }
      if (!controller.signal.aborted) await saveMemory(powers, memory, log, redact);
    }
    await following;
  };

  const stopped = serve().catch((error: unknown) => {
    log(`the agent stopped: ${redact(describeError(error))}`);
  });
  return { stopped, cancel };
};
