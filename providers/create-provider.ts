/**
 * Picks and builds the model back end from the caplet's env (docs/behaviour.md 7.1):
 * LAL_PROVIDER (anthropic | openai | ollama) if set, else by LAL_HOST —
 * `anthropic.com` → Anthropic, `/v1` → OpenAI-compatible, otherwise native
 * Ollama (default http://localhost:11434). Throws ProviderError('config') for
 * bad settings, with a message that names the variable and never its secret.
 */
import { makeError, q, X } from '@endo/errors';
import { makeAnthropicProvider } from './anthropic.js';
import { readProviderConfig, type ProviderConfig } from './config.js';
import { makeOllamaProvider } from './ollama.js';
import { makeOpenAIProvider } from './openai.js';
import type { ProviderOptions } from './provider-options.js';
import type { Env, Provider } from './types.js';

// eslint-disable-next-line @endo/harden-exports -- a type: nothing at run time to harden
export type { ProviderOptions } from './provider-options.js';

export const createProvider = (env: Env, options: ProviderOptions = {}): Provider =>
  buildProvider(readProviderConfig(env), options);
harden(createProvider);

/** The provider for settings already read (LAL_HOST's, or a LAL_FALLBACK entry's). */
export const buildProvider = (config: ProviderConfig, options: ProviderOptions = {}): Provider => {
  switch (config.kind) {
    case 'anthropic':
      return makeAnthropicProvider(config, options);
    case 'openai':
      return makeOpenAIProvider(config, options);
    case 'ollama':
      return makeOllamaProvider(config, options);
    default: {
      const unknownKind: never = config.kind;
      throw makeError(X`Unknown provider kind ${q(unknownKind)}`);
    }
  }
};
harden(buildProvider);
