/**
 * The caplet entry: `make(powers, context, { env })` as the Endo daemon's
 * worker calls it. It returns at once with a small exo and runs the agent
 * in the background; configuration problems are told to the HOST by mail,
 * never thrown.
 */
import { makeExo } from '@endo/exo';
import { M } from '@endo/patterns';
import type { Env, Provider } from './providers/types.js';
import type { PowersRef } from './src/guest-powers.js';
import type { Log } from './src/log.js';
import type { Observe } from './src/loop/agent-events.js';
import { makeStatusBoard } from './src/agent-status.js';
import { runAgent } from './src/run-agent.js';

export { FaeToolInterface } from './src/fae-tool.js';

const AgentInterface = M.interface('LalFaeAgent', {
  help: M.call().optional(M.string()).returns(M.string()),
});

const INTRO =
  'An LLM agent (Lal or Fae) that answers the mail of its guest. Talk to it by sending it a message. Methods: help(methodName?).';
const HELP: Record<string, string> = {
  help: 'help(methodName?) → documentation of this agent or one of its methods.',
};

/** Options a daemon passes (`env`) and an in-process host may add. */
export interface MakeOptions {
  env?: Env;
  /** For in-process hosts (tests, the simulator): model back end, log, progress, local cancellation. */
  createProvider?: (env: Env, tools: { log: Log }) => Provider | Promise<Provider>;
  log?: Log;
  observe?: Observe;
  cancelled?: Promise<unknown>;
}

const defaultCreateProvider = async (env: Env, { log }: { log: Log }): Promise<Provider> => {
  // Imported on first use: the SDKs load only when a model is needed.
  const { connectProvider } = await import('./providers/connect-provider.js');
  return connectProvider(env, { log });
};

export const make = (powers: PowersRef, context: unknown, options: MakeOptions = {}) => {
  const env: Env = options.env ?? {};
  const status = makeStatusBoard();
  runAgent({
    status,
    powers,
    context,
    env,
    createProvider: options.createProvider ?? defaultCreateProvider,
    ...(options.log === undefined ? {} : { log: options.log }),
    ...(options.observe === undefined ? {} : { observe: options.observe }),
    ...(options.cancelled === undefined ? {} : { cancelled: options.cancelled }),
  });
  return makeExo('LalFaeAgent', AgentInterface, {
    help(methodName?: string) {
      if (methodName === undefined || methodName === '') {
        const now = status.describe();
        return now === '' ? INTRO : `${INTRO}\n\n${now}`;
      }
      return HELP[methodName] ?? `No method named ${JSON.stringify(methodName)}. ${INTRO}`;
    },
  });
};
