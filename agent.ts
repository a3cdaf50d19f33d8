/**
 * The caplet entry: `make(powers, context, { env })` as the Endo daemon's
 * worker calls it. It returns at once with a small exo and runs the agent
 * in the background; configuration problems are told to the HOST by mail,
 * never thrown.
 */
import { makeExo } from '@endo/exo';
import { M } from '@endo/patterns';
import type { Env, Provider } from './providers/types.js';
import type { PowersRef } from './src/daemon/guest-powers.js';
import type { Log } from './src/log/log.js';
import type { Observe } from './src/events/agent-events.js';
import { makeStatusBoard } from './src/status/agent-status.js';
import { runAgent } from './src/run-agent.js';
import type { Clock } from './src/lifecycle/clock.js';
import type { RevivalMemory } from './src/lifecycle/revival-backoff.js';
import type { LastWrites } from './src/lifecycle/last-write.js';
import type { HeldMemory } from './src/daemon/held-formulas.js';
import type { HostConfirm } from './src/policy/tool-policy.js';

// An M.interface is hardened where it is made (src/agent-tools/fae-tool.ts); harden() on it again is redundant.
// eslint-disable-next-line @endo/harden-exports
export { FaeToolInterface, StoppableFaeToolInterface } from './src/agent-tools/fae-tool.js';

const AgentInterface = M.interface('LalFaeAgent', {
  help: M.call().optional(M.string()).returns(M.string()),
  forget: M.call().returns(M.promise()),
  startedAt: M.call().returns(M.number()),
  schedules: M.call().optional(M.string(), M.string()).returns(M.promise()),
  helpers: M.call().optional(M.string(), M.string()).returns(M.promise()),
  channels: M.call().optional(M.string(), M.string(), M.string()).returns(M.promise()),
  tools: M.call().returns(M.promise()),
});

const INTRO =
  'An LLM agent (Lal or Fae) that answers the mail of its guest. Talk to it by sending it a message. Methods: help(methodName?), forget(), startedAt(), schedules(action?, id?), helpers(action?, id?), channels(action?, channel?, level?), tools().';
const HELP: Record<string, string> = {
  help: 'help(methodName?) → documentation of this agent or one of its methods.',
  startedAt:
    'startedAt() → when this agent started (milliseconds since 1970): setup tells a running agent from one it had to start again.',
  schedules:
    "schedules(action?, id?) → the agent's schedules (wake-ups, recurring ones, triggers, heartbeat checks), one a line; schedules('pause', 'w2'), schedules('resume', 'w2') or schedules('revoke', 'w2') changes one, between turns, and stores it. From the Endo CLI: endo eval 'E(agent).schedules(\"pause\", \"w2\")' agent:controller-for-lal",
  channels:
    "channels(action?, channel?, level?) → the channels joined (newest daemon), each with its level; channels('level', 'ch-1', 'quiet') sets one's level (active, normal, quiet, observer: only when mentioned); channels('leave', 'ch-1') stops following it and forgets it. From the Endo CLI: endo eval 'E(agent).channels(\"leave\", \"ch-1\")' agent:controller-for-lal",
  helpers:
    "helpers(action?, id?) → the helper agents running (task, what they were given, model calls so far, age), one a line; helpers('cancel', 'h2') stops one at once, and whoever made it is told. From the Endo CLI: endo eval 'E(agent).helpers(\"cancel\", \"h2\")' agent:controller-for-lal",
  tools:
    "tools() → every tool the agent's turns can reach, by name, one source a line: the built-ins, then each of tools/'s sources, those deferred behind toolbox named too (help() counts them). From the Endo CLI: endo eval 'E(agent).tools()' agent:controller-for-lal",
  forget:
    "forget() → clears the agent's memory: the conversation, its digest and the usage counts (not the ids of handled messages, so nothing is answered twice, nor pending wake-ups); done between turns, and stored. From the Endo CLI: endo eval 'E(agent).forget()' agent:controller-for-lal (the agent caplet, controller-for-<guest>)",
};

/** Options a daemon passes (`env`) and an in-process host may add. */
export interface MakeOptions {
  env?: Env;
  /** For in-process hosts (tests, the simulator): model back end, log, progress, local cancellation. */
  createProvider?: (env: Env, tools: { log: Log }) => Provider | Promise<Provider>;
  log?: Log;
  observe?: Observe;
  cancelled?: Promise<unknown>;
  /** Time for quotas and wake-ups (tests move it by hand); the system's by default. */
  clock?: Clock;
  /** Failed starts remembered across the incarnations of one agent; the worker process's by default. */
  revivals?: RevivalMemory;
  /** The last write of each agent's stopped run, awaited by its next run; the worker process's by default. */
  lastWrites?: LastWrites;
  /** The names written for what the worker was handed (src/daemon/held-formulas.ts); the worker process's by default. */
  held?: HeldMemory;
  /** The calls to put to the HOST first, kept by the host and read at each call, in place of LAL_TOOLS_CONFIRM (`npm start`'s answers). */
  confirm?: HostConfirm;
}

const defaultCreateProvider = async (env: Env, { log }: { log: Log }): Promise<Provider> => {
  // Imported on first use: the SDKs load only when a model is needed.
  const { connectProvider } = await import('./providers/connect-provider.js');
  return connectProvider(env, { log });
};

export const make = (powers: PowersRef, context: unknown, options: MakeOptions = {}) => {
  const env: Env = options.env ?? {};
  const startedAt = Date.now();
  const status = makeStatusBoard();
  const running = runAgent({
    status,
    powers,
    context,
    env,
    createProvider: options.createProvider ?? defaultCreateProvider,
    ...(options.log === undefined ? {} : { log: options.log }),
    ...(options.observe === undefined ? {} : { observe: options.observe }),
    ...(options.cancelled === undefined ? {} : { cancelled: options.cancelled }),
    ...(options.clock === undefined ? {} : { clock: options.clock }),
    ...(options.revivals === undefined ? {} : { revivals: options.revivals }),
    ...(options.lastWrites === undefined ? {} : { lastWrites: options.lastWrites }),
    ...(options.held === undefined ? {} : { held: options.held }),
    ...(options.confirm === undefined ? {} : { confirm: options.confirm }),
  });
  return makeExo('LalFaeAgent', AgentInterface, {
    help(methodName?: string) {
      if (methodName === undefined || methodName === '') {
        const now = status.describe();
        return now === '' ? INTRO : `${INTRO}\n\n${now}`;
      }
      return HELP[methodName] ?? `No method named ${JSON.stringify(methodName)}. ${INTRO}`;
    },
    forget() {
      return running.forget();
    },
    startedAt() {
      return startedAt;
    },
    schedules(action?: string, id?: string) {
      return running.schedules(action, id);
    },
    helpers(action?: string, id?: string) {
      return running.helpers(action, id);
    },
    channels(action?: string, channel?: string, level?: string) {
      return running.channels(action, channel, level);
    },
    tools() {
      return running.tools();
    },
  });
};
harden(make);
