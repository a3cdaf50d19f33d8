/**
 * The model back end as the agent uses it: the provider LAL_HOST names,
 * with its model asked of the server when LAL_MODEL is unset (the fixed
 * default is the last resort), followed by the LAL_FALLBACK servers.
 */
import { readProviderConfig, type ProviderConfig } from './config.js';
import { buildProvider } from './create-provider.js';
import { makeFallbackChain } from './fallback-chain.js';
import { readFallbackConfigs, readFallbackCoolDownMs } from './fallback-config.js';
import { checkServer } from './check-server.js';
import { firstChatModel } from './model-names.js';
import { displayHost } from './display-host.js';
import type { ProviderOptions } from './provider-options.js';
import type { Env, ModelChoice, Provider } from './types.js';

import { describeModelChoice } from './describe-model-choice.js';

export { describeModelChoice };
harden(describeModelChoice);

export interface ConnectOptions extends ProviderOptions {
  /** The clock of the fallback chain's cool-down (tests). */
  now?: () => number;
  /** Whether LAL_HOST was set (else the default Ollama address is tried); words the advice. */
  hostFromEnv?: boolean;
}

/** Picks the model (LAL_MODEL, else the server's first, else the default) and builds its provider. */
const connectOne = async (
  config: ProviderConfig,
  options: ConnectOptions = {},
): Promise<Provider> => {
  // The start-up check: the problem, if any, is what the greeting tells the HOST.
  const { models: offered, problem } = await checkServer(config, options);
  let choice: ModelChoice;
  let model = config.model;
  if (config.modelFromEnv) {
    choice = { source: 'LAL_MODEL', offered };
  } else if (firstChatModel(offered) !== undefined) {
    const chosen = firstChatModel(offered)!;
    model = chosen;
    const passedOver = offered.slice(0, offered.indexOf(chosen));
    choice = { source: 'detected', offered, ...(passedOver.length > 0 ? { passedOver } : {}) };
  } else {
    choice = { source: 'default', offered };
  }
  if (problem !== undefined) choice = { ...choice, problem };
  const provider = buildProvider({ ...config, model }, options);
  return harden({ kind: provider.kind, model: provider.model, choice, chat: provider.chat });
};

export const connectProvider = async (
  env: Env,
  options: ConnectOptions = {},
): Promise<Provider> => {
  const configs = [readProviderConfig(env), ...readFallbackConfigs(env)];
  const coolDownMs = readFallbackCoolDownMs(env);
  const hostFromEnv = (env.LAL_HOST ?? '') !== '';
  const providers = await Promise.all(
    configs.map(config => connectOne(config, { hostFromEnv, ...options })),
  );
  return makeFallbackChain(
    providers.map((provider, index) => ({ provider, host: displayHost(configs[index]!.host) })),
    {
      coolDownMs,
      ...(options.log ? { log: options.log } : {}),
      ...(options.now ? { now: options.now } : {}),
    },
  );
};
harden(connectProvider);
