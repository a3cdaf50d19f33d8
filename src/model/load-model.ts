/**
 * The model back end, made once at start: every answered call is counted in
 * the usage ledger under the model that served it. A back end that cannot be
 * made is kept as the reason, told to whoever writes (the agent still runs).
 */
import type { Env, Provider } from '../../providers/types.js';
import type { Clock } from '../lifecycle/clock.js';
import type { Log } from '../log/log.js';
import type { Memory } from '../memory/agent-memory.js';
import { meteredProvider } from '../usage/metered-provider.js';
import { recordUsage } from '../usage/usage-ledger.js';
import { describeError } from '../../providers/describe-error.js';

export type ModelChoice = { provider: Provider } | { problem: string };

export const loadModel = async (options: {
  createProvider: (env: Env, tools: { log: Log }) => Provider | Promise<Provider>;
  env: Env;
  log: Log;
  redact: (text: string) => string;
  memory: Memory;
  clock: Clock;
}): Promise<ModelChoice> => {
  const { memory, clock } = options;
  try {
    const provider = await options.createProvider(options.env, { log: options.log });
    return {
      provider: meteredProvider(provider, (served, result) =>
        recordUsage(memory.usage, served, result.usage, clock.now()),
      ),
    };
  } catch (error) {
    return { problem: options.redact(describeError(error)) };
  }
};
harden(loadModel);
