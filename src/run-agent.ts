/**
 * The agent at work: follows the guest's mail, runs one turn per message
 * (and per batch of proposal outcomes) on a single serving loop, remembers
 * what it handled, and stops cleanly when its context is cancelled. The
 * parts it is made of are in serving/ (assembled by agent-parts.ts).
 */
import { bare, makeError, X } from '@endo/errors';
import type { Env, Provider } from '../providers/types.js';
import type { PowersRef } from './daemon/guest-powers.js';
import { readAgentConfig } from './config/config.js';
import type { Log } from './log/log.js';
import { makeStatusBoard, type StatusBoard } from './status/agent-status.js';
import { makeAgentOutput } from './log/agent-output.js';
import { watchCancellation } from './lifecycle/watch-cancellation.js';
import { lastWriteOf, workerLastWrites, type LastWrites } from './lifecycle/last-write.js';
import { makeCancelHooks, type CancelHooks } from './lifecycle/cancel-hooks.js';
import { isMailboxLoadFailure, reportMailboxLoadFailure } from './mail/mailbox-load-failure.js';
import type { Observe } from './events/agent-events.js';
import { makeWorkQueue, type WorkQueue } from './serving/work-queue.js';
import { systemClock, type Clock } from './lifecycle/clock.js';
import { assembleAgentParts } from './serving/agent-parts.js';
import { makeMessageFinisher, safeDismiss } from './serving/finish-message.js';
import { followAgentMail } from './serving/follow-agent-mail.js';
import { forgetConversation } from './serving/forget-conversation.js';
import { makeMailTurns } from './serving/mail-turns.js';
import { makeNoticeTurns } from './serving/notice-turns.js';
import { makeWakeTurns } from './serving/wake-turns.js';
import { controlSchedules } from './schedule/control-schedules.js';
import { runServingLoop } from './serving/serving-loop.js';
import { unknownPolicyToolNames } from './toolbox/own-tool-names.js';
import { greetHost, prepareToolsFolder } from './serving/start-up.js';
import { makeToolsFreshness } from './serving/tools-freshness.js';
import { describeError } from '../providers/describe-error.js';
import { laneOfWork, type Work } from './serving/work.js';
import { finishEarlierAsk } from './asks/resume-pending-asks.js';
import { saveMemory } from './memory/agent-memory.js';
import { makeDismissalEar } from './memory/handled-keys.js';
import { readStoredToken } from './serving/stored-token.js';
import type { Helpers } from './helpers/helpers.js';
import { makeStartWatch, workerRevivals, type RevivalMemory } from './lifecycle/revival-backoff.js';
import { makeChannelsHand } from './channels/start-channels.js';
import { holdWhatIsHanded, workerHeld, type HeldMemory } from './daemon/held-formulas.js';
import { detectGeneration } from './daemon/generation.js';
import { ensureDirectory } from './agent-tools/tools-directory.js';
import { STATE_DIRECTORY } from './daemon/own-names.js';
import type { HostConfirm } from './policy/tool-policy.js';

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
  /** Failed starts remembered across incarnations: the worker process's by default. */
  revivals?: RevivalMemory;
  /** Each agent's last run's last write, awaited before a run starts (lifecycle/last-write.ts): the worker's by default. */
  lastWrites?: LastWrites;
  /** The names written for what the worker was handed: the worker process's by default. */
  held?: HeldMemory;
  /** The calls an in-process host puts to the HOST first, in place of LAL_TOOLS_CONFIRM. */
  confirm?: HostConfirm;
}

export interface RunningAgent {
  /** Settles when the agent has stopped (after cancellation). */
  stopped: Promise<void>;
  cancel(reason?: unknown): void;
  /** Clears the conversation, its digest and the usage (not the handled message ids), between turns. */
  forget(): Promise<string>;
  /** The HOST's hand on the schedules: "list" (the default), or "pause", "resume", "revoke" and an id. */
  schedules(action?: string, id?: string): Promise<string>;
  /** The HOST's hand on the helper agents: "list" (the default), or "cancel" and an id. */
  helpers(action?: string, id?: string): Promise<string>;
  /** The HOST's hand on the channels joined (newest daemon): "list" (the default), "leave" a channel, or set its "level". */
  channels(action?: string, channel?: string, level?: string): Promise<string>;
  /** Every tool a turn can reach, by name and source, those behind the toolbox too. */
  tools(): Promise<string>;
  /** How many hooks wait for cancellation (a leak check for tests). */
  cancelHooks(): number;
}

/** The controller's methods wait for the turn in progress: their work runs between turns, and is stored. */
const makeBetweenTurns =
  (queue: WorkQueue<Work>, onCancel: CancelHooks, signal: AbortSignal) =>
  (
    method: string,
    work: (resolve: (said: string) => void, fail: (error: unknown) => void) => Work,
  ) =>
    new Promise<string>((resolve, reject) => {
      if (signal.aborted) {
        reject(makeError(X`the agent has stopped: ${bare(method)}() was not done`));
        return;
      }
      // Said whole: which call it was, and that it was not done (issue 45: a cut sentence reached the screen).
      const unhook = onCancel.add(() =>
        reject(
          makeError(
            X`the agent stopped before ${bare(method)}() ran between turns: it was not done; call it again once the agent runs`,
          ),
        ),
      );
      queue.push(
        work(
          said => {
            unhook();
            resolve(said);
          },
          error => {
            unhook();
            reject(error instanceof Error ? error : makeError(String(error)));
          },
        ),
      );
    });

/**
 * The HOST's hand on the helpers, once the parts are assembled. At once, not
 * between turns: a helper works beside the turns, and cancelling it waits for none.
 */
const makeHelpersHand = () => {
  let helpers: Pick<Helpers, 'control'> | undefined;
  return {
    reach: (assembled: Pick<Helpers, 'control' | 'reportLost'>) => {
      // Helpers that were running when the agent stopped are told lost; none runs again.
      assembled.reportLost();
      helpers = assembled;
    },
    control: (action = 'list', id?: string): Promise<string> =>
      Promise.resolve().then(() => {
        if (helpers === undefined) throw makeError(X`the agent is still starting`);
        return helpers.control(action, id);
      }),
  };
};

/** The HOST's view of the tools, once they were read at start. */
const makeToolsHand = () => {
  let listTools: (() => Promise<string>) | undefined;
  return {
    reach: (given: () => Promise<string>) => {
      listTools = given;
    },
    list: (): Promise<string> =>
      Promise.resolve().then(() => {
        if (listTools === undefined) throw makeError(X`the agent is still starting`);
        return listTools();
      }),
  };
};

const describeConfig = (config: ReturnType<typeof readAgentConfig>, more: readonly string[]) => [
  `persona: ${config.persona}`,
  ...[...config.problems, ...more].map(problem => `configuration: ${problem}`),
];

/** The agent stopped with an error. Powers that fail to load are said once a run of failed starts: to HOST if it can, else in the log. */
const sayStopped =
  (options: {
    powers: PowersRef;
    log: Log;
    redact: (text: string) => string;
    starts: ReturnType<typeof makeStartWatch>;
  }) =>
  async (error: unknown): Promise<void> => {
    const { powers, log, redact, starts } = options;
    const unloaded = isMailboxLoadFailure(error);
    if (unloaded && !starts.failedFirst()) return;
    log(`the agent stopped: ${redact(describeError(error))}`);
    if (unloaded)
      await reportMailboxLoadFailure({ powers, log, pendingSources: [], retrying: false });
  };

/**
 * The powers every part reaches the daemon through: what the worker is handed by a name stays named
 * (src/daemon/held-formulas.ts), and each dismissal that goes through is told to the handled keys.
 */
const heldPowers = async (options: AgentOptions, name: string, log: Log) => {
  const dismissals = makeDismissalEar();
  const powers = (await holdWhatIsHanded({
    powers: options.powers,
    methods: (await detectGeneration(options.powers)).methods,
    name,
    memory: options.held ?? workerHeld,
    log,
    ensureStateDirectory: () => ensureDirectory(options.powers, STATE_DIRECTORY, log),
    answered: dismissals.answered,
  })) as PowersRef;
  return { powers, dismissals };
};

export const runAgent = (options: AgentOptions): RunningAgent => {
  const { env } = options;
  const config = readAgentConfig(env);
  const status = options.status ?? makeStatusBoard();
  /** The policy lists' names that name no tool the agent knows, said once its tools are read at start. */
  let unknownTools: readonly string[] = [];
  status.section('Agent', () => describeConfig(config, unknownTools));
  const { log, observe, redact, addSecret } = makeAgentOutput(env, options);
  const [controller, clock] = [new AbortController(), options.clock ?? systemClock];
  // Others' turns wait for the mail stream to catch up, so a HOST's message behind a flood goes first.
  let caughtUp: () => Promise<void> = () => Promise.resolve();
  const queue = makeWorkQueue<Work>(laneOfWork, { beforeRest: () => caughtUp() });
  const onCancel = makeCancelHooks();
  const starts = makeStartWatch(options.revivals ?? workerRevivals, config.name, clock, status);
  const cancel = (reason?: unknown) => {
    if (controller.signal.aborted) return;
    // Once the daemon is reviving it over and over, each revival's cancellation goes unsaid.
    if (!isMailboxLoadFailure(reason) || starts.failedFirst())
      log(`cancelled${reason === undefined ? '' : `: ${describeError(reason)}`}`);
    controller.abort();
    queue.close();
    onCancel.run(reason);
  };
  watchCancellation(options.context, options.cancelled, cancel);

  const [helpersHand, channelsHand] = [makeHelpersHand(), makeChannelsHand()];
  const toolsHand = makeToolsHand();
  const lastWrite = lastWriteOf(options.lastWrites ?? workerLastWrites, config.name);
  const serve = lastWrite.after(async (): Promise<void> => {
    const { signal } = controller;
    if (!(await starts.wait(signal, log))) return;
    const { powers, dismissals } = await heldPowers(options, config.name, log);
    await prepareToolsFolder(powers, log);
    const agentEnv = await readStoredToken(env, powers, { addSecret, log });
    const parts = await assembleAgentParts({
      ...{ powers, env: agentEnv, config, status, log, observe, redact, clock, queue, signal },
      ...{ createProvider: options.createProvider, dismissals },
      ...(options.confirm === undefined ? {} : { confirm: options.confirm }),
    });
    onCancel.add(reason => parts.stop(reason));
    if (starts.through()) log('my mailbox loads again: back at work');
    await greetHost({ powers, log, redact, config, parts });

    const finishWith = makeMessageFinisher(powers, parts);
    const toolsFresh = makeToolsFreshness({
      powers,
      tools: parts.tools,
      log,
      followNameChanges: parts.daemon.followNameChanges,
      remake: () => prepareToolsFolder(powers, log),
    });
    onCancel.add(() => toolsFresh.stop());
    // Read once at start too, so help() names every tool (deferred ones too) before the first turn.
    await toolsFresh.follow().then(() => toolsFresh.beforeTurn());
    // tools() says what a turn would reach now: tools/ read as a turn reads it, then listed.
    toolsHand.reach(() => toolsFresh.readNow().then(parts.listTools));
    // Only now are the tools it holds known: a policy list's name that is none of them is said once.
    unknownTools = unknownPolicyToolNames(
      agentEnv,
      parts.tools.offeredBy().map(tool => tool.name),
    );
    for (const line of unknownTools) log(`configuration: ${line}`);
    // Channels exist on the newest daemon only; those joined before a restart are followed again.
    const channels = await channelsHand.start({
      ...{ powers, env: agentEnv, status, log, observe, redact, clock, signal, parts, onCancel },
      queue,
      ...{ config, createProvider: options.createProvider },
    });
    const handleMail = makeMailTurns({
      parts,
      config,
      clock,
      log,
      observe,
      redact,
      toolsFresh,
      finishWith,
      dismiss: (number: unknown) => safeDismiss(powers, number),
      ...(channels === undefined ? {} : { channels }),
    });
    const save = () => saveMemory(powers, parts.memory, log, redact);
    const { handleNotices } = makeNoticeTurns({ parts, toolsFresh, finishWith, save });
    const handleWake = makeWakeTurns({ parts, toolsFresh, save });

    // Wake-ups stored before a restart are armed again (runs missed meanwhile: one turn at once, or skipped).
    parts.wakeUps.armAll();
    parts.watchDirectories();
    // Asks stored before a restart are followed again through their copies in the inbox.
    await parts.asks.resume(finishEarlierAsk(parts));
    helpersHand.reach(parts.helpers);

    const push = (work: Work) => queue.push(work);
    const follower = followAgentMail({ powers, parts, log, redact, push });
    onCancel.add(() => follower.stop());
    caughtUp = follower.caughtUp;
    if (signal.aborted) follower.stop();
    const following = follower.done.catch((error: unknown) => {
      if (!signal.aborted) log(`stopped following mail: ${describeError(error)}`);
      queue.close();
    });

    await runServingLoop({
      queue,
      signal,
      powers,
      parts,
      log,
      redact,
      handle: {
        mail: handleMail,
        channel: work => channels?.serve(work) ?? Promise.resolve(),
        notices: handleNotices,
        wake: handleWake,
        forget: () => forgetConversation(parts, clock, log),
        schedules: (action, id) => controlSchedules(parts.wakeUps, action, id),
      },
    }).finally(lastWrite.written);
    await following;
  });

  const stopped = serve().catch(sayStopped({ powers: options.powers, log, redact, starts }));
  void stopped.then(lastWrite.written);
  const betweenTurns = makeBetweenTurns(queue, onCancel, controller.signal);
  return {
    stopped,
    cancel,
    forget: () => betweenTurns('forget', done => ({ kind: 'forget', done })),
    schedules: (action = 'list', id?: string) =>
      betweenTurns('schedules', (done, fail) => ({ kind: 'schedules', action, id, done, fail })),
    helpers: helpersHand.control,
    channels: channelsHand.control,
    tools: toolsHand.list,
    cancelHooks: () => onCancel.size(),
  };
};
harden(runAgent);
