/**
 * The model back end as the agent uses it: the provider LAL_HOST names,
 * with its model asked of the server when LAL_MODEL is unset (the fixed
 * default is the last resort), followed by the LAL_FALLBACK servers.
 */
import { readProviderConfig, type ProviderConfig } from './config.js';
import { buildProvider } from './create-provider.js';
import { makeFallbackChain } from './fallback-chain.js';
import { readFallbackConfigs, readFallbackCoolDownMs } from './fallback-config.js';
import { listModels } from './list-models.js';
import { displayHost } from './provider-errors.js';
import type { ProviderOptions } from './provider-options.js';
import type { Env, ModelChoice, Provider } from './types.js';

export { describeModelChoice } from './describe-model-choice.js';

export interface ConnectOptions extends ProviderOptions {
  /** The clock of the fallback chain's cool-down (tests). */
  now?: () => number;
}

/** Picks the model (LAL_MODEL, else the server's first, else the default) and builds its provider. */
export const connectOne = async (
  config: ProviderConfig,
  options: ConnectOptions = {},
): Promise<Provider> => {
  const listed = await listModels(config, options);
  const offered = listed.ok ? listed.models : [];
  const problem = listed.ok
    ? offered.length === 0
      ? 'the server lists no models'
      : undefined
    : listed.reason;
  let choice: ModelChoice;
  let model = config.model;
  if (config.modelFromEnv) {
    choice = { source: 'LAL_MODEL', offered };
  } else if (offered[0] !== undefined) {
    model = offered[0];
    choice = { source: 'detected', offered };
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
  const providers = await Promise.all(configs.map(config => connectOne(config, options)));
  return makeFallbackChain(
    providers.map((provider, index) => ({ provider, host: displayHost(configs[index]!.host) })),
    {
      coolDownMs,
      ...(options.log ? { log: options.log } : {}),
      ...(options.now ? { now: options.now } : {}),
    },
  );
};
