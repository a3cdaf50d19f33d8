/**
 * The agent at work: follows the guest's mail, runs one turn per message
 * (and per batch of proposal outcomes) on a single serving loop, remembers
 * what it handled, and stops cleanly when its context is cancelled.
 */
import { E } from '@endo/far';
import type { Env, Provider, ToolCall } from '../providers/types.js';
import type { PowersRef } from './guest-powers.js';
import { readAgentConfig, type AgentConfig } from './config.js';
import { makeLog, makeRedactor, type Log } from './log.js';
import { greeting, systemPrompt } from './system-prompt.js';
import { makeSenderNames, type NameOf } from './mail/sender-names.js';
import { messageNotice } from './mail/message-notice.js';
import { cut, isProposalType, messageKey, packageText, type MessageRecord } from './mail/message-record.js';
import { makeProposalTracker, type Origin, type ProposalTracker } from './proposals/proposal-tracker.js';
import { BUILTIN_NAMES, BUILTIN_SCHEMAS } from './tools/builtin-schemas.js';
import { makeToolRegistry, type ToolRegistry } from './tools/fae-tool-registry.js';
import { adoptIntroducedTools } from './tools/adopt-introduced-tools.js';
import type { BuiltinContext } from './tools/dispatch-builtin-tool.js';
import { startTurn } from './history/conversation.js';
import { loadMemory, MEMORY_NAME, rememberHandled, saveMemory, type Memory } from './memory/agent-memory.js';
import { runTurn, type TurnOutcome } from './loop/run-turn.js';
import { runToolCall } from './loop/run-tool-call.js';
import type { AgentEvent, Observe } from './loop/agent-events.js';
import { describeEvent } from './loop/describe-event.js';
import { makeWorkQueue } from './work-queue.js';

export interface AgentOptions {
  powers: PowersRef;
  /** The caplet's context: a remote (or local) object with whenCancelled(). */
  context: unknown;
  env: Env;
  /** Makes the model back end; `createProvider` of providers/ by default. */
  createProvider: (env: Env) => Provider | Promise<Provider>;
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

const NOTICE_MAX_CHARS = 8_000;
const describeError = (error: unknown): string => (error instanceof Error ? error.message : String(error));

export const runAgent = (options: AgentOptions): RunningAgent => {
  const { powers, env } = options;
  const config: AgentConfig = readAgentConfig(env);
  const redact = makeRedactor(env);
  const given = options.log;
  // Whoever provides the log, secrets are taken out first.
  const log: Log = given === undefined ? makeLog(env) : line => given(redact(line));
  const observers: Observe[] = [(event: AgentEvent) => log(describeEvent(event))];
  if (options.observe !== undefined) observers.push(options.observe);
  const observe: Observe = event => {
    const clean = JSON.parse(redact(JSON.stringify(event))) as AgentEvent;
    for (const observer of observers) {
      try {
        observer(clean);
      } catch {
        // An observer's failure is not the agent's.
      }
    }
  };

  const controller = new AbortController();
  const queue = makeWorkQueue<Work>();
  let iterator: unknown;
  const cancel = (reason?: unknown) => {
    if (controller.signal.aborted) return;
    log(`cancelled${reason === undefined ? '' : `: ${describeError(reason)}`}`);
    controller.abort();
    queue.close();
    if (iterator !== undefined) {
      Promise.resolve(E(iterator as AsyncIterator<unknown>).return!(undefined)).catch(() => {});
    }
  };
  Promise.resolve()
    .then(() => E(options.context as { whenCancelled(): Promise<void> }).whenCancelled())
    .then(
      () => cancel('context cancelled'),
      (reason: unknown) => cancel(reason),
    );
  options.cancelled?.then(
    () => cancel('cancelled by owner'),
    (reason: unknown) => cancel(reason),
  );

  const serve = async (): Promise<void> => {
    const selfId = (await E(powers).identify('SELF')) as string | undefined;
    const nameOf: NameOf = makeSenderNames(powers);
    let provider: Provider | undefined;
    let configError: string | undefined;
    try {
      provider = await options.createProvider(env);
    } catch (error) {
      configError = redact(describeError(error));
    }
    const memory: Memory = await loadMemory(powers, log);
    const handled = new Set(memory.handled);
    const tools: ToolRegistry = makeToolRegistry({ powers, log, builtinNames: BUILTIN_NAMES });
    const proposals: ProposalTracker = makeProposalTracker({ powers, log, onNotice: () => queue.push({ kind: 'notices' }) });
    try {
      const moved = await adoptIntroducedTools({ powers, log, reserved: new Set([MEMORY_NAME]) });
      if (moved.length > 0) log(`moved introduced tools into tools/: ${moved.join(', ')}`);
    } catch (error) {
      log(`could not prepare tools/: ${describeError(error)}`);
    }

    const hello = [greeting(config.persona), ...config.problems];
    if (configError !== undefined) hello.push(`I cannot think yet: ${configError}`);
    await Promise.resolve(E(powers).send('HOST', [hello.join(' ')], [], [])).catch((error: unknown) =>
      log(`could not greet HOST: ${describeError(error)}`),
    );

    let callIds = 0;
    const makeId = () => `call_${Date.now().toString(36)}_${(callIds += 1)}`;

    const safeDismiss = (number: unknown) => {
      if (typeof number !== 'bigint') return Promise.resolve();
      return Promise.resolve(E(powers).dismiss(number)).catch(() => {});
    };

    const toldAbout = async (origin: Origin | undefined, text: string) => {
      try {
        if (origin === undefined) {
          await E(powers).send('HOST', [text], [], []);
        } else {
          await E(powers).reply(origin.number, [text], [], []);
        }
      } catch (error) {
        // The message may be gone (dismissed); write to its sender instead.
        const to = origin?.sender ?? 'HOST';
        await Promise.resolve(E(powers).send(to, [text], [], [])).catch(() =>
          log(`could not tell ${to}: ${describeError(error)}`),
        );
      }
    };

    // Messages dismissed during the turn in progress, by the model itself.
    const dismissedByModel = new Set<bigint>();
    /** Dismisses a handled message, unless the model did, or a proposal for it still awaits its outcome. */
    const finishWith = async (number: bigint) => {
      if (dismissedByModel.delete(number) || proposals.hasPendingFor(number)) return;
      await safeDismiss(number);
    };

    /** Runs one turn about `origin`, then answers for the model where it left something unsaid. */
    const serveTurn = async (title: string, content: string, origin: Origin | undefined): Promise<TurnOutcome | undefined> => {
      if (provider === undefined) {
        await toldAbout(origin, `I cannot think: ${configError ?? 'no model is configured'}`);
        return undefined;
      }
      const answered = new Set<string>();
      const turn = startTurn(memory.conversation, title, cut(content, NOTICE_MAX_CHARS));
      observe({ kind: 'turn-start', title });
      const context: BuiltinContext = {
        powers,
        nameOf,
        proposals,
        tools,
        origin,
        noteAnswered: number => answered.add(number === undefined ? 'sent' : String(number)),
        noteDismissed: number => dismissedByModel.add(number),
      };
      await tools.refresh();
      const outcome = await runTurn({
        provider,
        systemPrompt: systemPrompt(config.persona),
        conversation: memory.conversation,
        turn,
        tools: () => [...BUILTIN_SCHEMAS, ...tools.schemas()],
        runTool: (call: ToolCall) => runToolCall(call, context, config.limits, controller.signal, observe),
        takeNotices: () => proposals.takeNotices().map(notice => notice.text),
        limits: config.limits,
        signal: controller.signal,
        observe,
        makeId,
      });
      const spoke = origin !== undefined && answered.has(String(origin.number));
      switch (outcome.stopReason) {
        case 'done':
          // A model that answers in plain text is answering the sender.
          if (!spoke && outcome.finalText.trim() !== '' && !answered.has('sent')) {
            await toldAbout(origin, outcome.finalText.trim());
          }
          break;
        case 'cancelled':
          break;
        default: {
          const why = outcome.stopReason === 'error' ? `the model failed: ${outcome.error ?? 'unknown error'}` : outcome.error ?? outcome.stopReason;
          await toldAbout(origin, redact(`I stopped working on this: ${why}. Send it again or rephrase if you still need it.`));
        }
      }
      return outcome;
    };

    const handleOwn = (message: MessageRecord) => {
      if (message.type === 'eval-proposal-proposer') {
        proposals.noteOwnCopy(message);
      } else if (!isProposalType(message.type)) {
        // Our own sent copies would otherwise fill the inbox forever.
        void safeDismiss(message.number);
      }
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
      const sender = await nameOf(message.from);
      const origin: Origin = { number: message.number, sender };
      const notice = messageNotice(config.persona, message, sender);
      const preview = message.type === 'package' ? packageText(message) : String(message.type);
      const title = `#${message.number} from ${sender}: ${JSON.stringify(cut(preview.replace(/\s+/g, ' '), 160))}`;
      const outcome = await serveTurn(title, notice, origin);
      if (outcome?.stopReason === 'cancelled') return;
      if (key !== undefined) {
        handled.add(key);
        // Bounded: a key forgotten here belongs to mail long since dismissed.
        for (const forgotten of rememberHandled(memory, key, config.limits.rememberHandled)) handled.delete(forgotten);
      }
      await finishWith(message.number);
    };

    const handleNotices = async (): Promise<void> => {
      const notices = proposals.takeNotices();
      if (notices.length === 0) return;
      const origin = notices.find(notice => notice.origin !== undefined)?.origin;
      const title = `proposal outcome: ${notices.map(notice => `${notice.proposalId} ${notice.text.split(':')[0]}`).join(', ')}`;
      await serveTurn(title, notices.map(notice => notice.text).join('\n\n'), origin);
      // The messages these proposals answered can go once nothing more is pending for them.
      const origins = new Set(notices.flatMap(notice => (notice.origin === undefined ? [] : [notice.origin.number])));
      await Promise.all([...origins].map(finishWith));
    };

    const follow = async (): Promise<void> => {
      iterator = await E(powers).followMessages();
      if (controller.signal.aborted) {
        await Promise.resolve(E(iterator as AsyncIterator<unknown>).return!(undefined)).catch(() => {});
        return;
      }
      for (;;) {
        const step = (await E(iterator as AsyncIterator<unknown>).next()) as IteratorResult<unknown>;
        if (step.done || controller.signal.aborted) return;
        const message = step.value as MessageRecord;
        if (message === null || typeof message !== 'object') {
          log('skipped a malformed message');
          continue;
        }
        if (selfId !== undefined && message.from === selfId) {
          handleOwn(message);
        } else {
          queue.push({ kind: 'mail', message });
        }
      }
    };
    const following = follow().catch((error: unknown) => {
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
      if (!controller.signal.aborted) {
        await saveMemory(powers, memory, log);
      }
    }
    await following;
  };

  const stopped = serve().catch((error: unknown) => {
    log(`the agent stopped: ${redact(describeError(error))}`);
  });
  return { stopped, cancel };
};
