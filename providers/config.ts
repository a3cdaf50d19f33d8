/**
 * Reads the provider settings out of the caplet's env, once, into a typed
 * record. Bad values are refused with an error that names the variable; the
 * auth token is kept but never appears in any message.
 */
import { readSecret } from './read-secret.js';
import { ProviderError } from './types.js';
import type { Env } from './types.js';

/**
 * The token budget of one request (LAL_CONTEXT_TOKENS), sized for a 32k-token local model with
 * room for the reply. It lives here because the Ollama context window is derived from it; the
 * agent's limits (src/config/config.ts) take their default from this one.
 */
export const DEFAULT_CONTEXT_TOKENS = 24_000;
harden(DEFAULT_CONTEXT_TOKENS);

type ProviderKind = 'anthropic' | 'openai' | 'ollama';

export interface ProviderConfig {
  kind: ProviderKind;
  /** The service's base address as the SDK wants it (no trailing slash). */
  host: string;
  model: string;
  /** Whether LAL_MODEL named the model (otherwise it is detected, else the default). */
  modelFromEnv: boolean;
  /** LAL_AUTH_TOKEN, or the file LAL_AUTH_TOKEN_FILE names; undefined when neither is set. */
  authToken: string | undefined;
  /** LAL_MAX_TOKENS: the most tokens one reply may have. */
  maxTokens: number | undefined;
  /** LAL_MAX_MESSAGES: how many recent messages each request keeps. */
  maxMessages: number | undefined;
  /** LAL_REQUEST_TIMEOUT_MS: how long one HTTP attempt may take. */
  timeoutMs: number;
  /** LAL_MAX_RETRIES: how many times a transient failure is retried. */
  maxRetries: number;
  /**
   * The context window to ask a native Ollama server for (LAL_NUM_CTX, else the
   * agent's token budget plus room for the reply). Ollama's own default is a
   * few thousand tokens, and it cuts a longer prompt silently.
   */
  contextWindow: number;
}

export const DEFAULT_HOST = 'http://localhost:11434';
harden(DEFAULT_HOST);
export const DEFAULT_ANTHROPIC_MODEL = 'claude-sonnet-5-5';
harden(DEFAULT_ANTHROPIC_MODEL);
export const DEFAULT_LOCAL_MODEL = 'qwen3';
harden(DEFAULT_LOCAL_MODEL);
/** Anthropic requires max_tokens on every request; this is ours when unset. */
export const DEFAULT_ANTHROPIC_MAX_TOKENS = 8192;
harden(DEFAULT_ANTHROPIC_MAX_TOKENS);
export const DEFAULT_TIMEOUT_MS = 10 * 60 * 1000;
harden(DEFAULT_TIMEOUT_MS);
export const DEFAULT_MAX_RETRIES = 2;
harden(DEFAULT_MAX_RETRIES);
/** Room for the reply in the context window when LAL_MAX_TOKENS is unset. */
const DEFAULT_REPLY_ROOM = 4096;
const CONTEXT_STEP = 1024;

const providerKinds: readonly ProviderKind[] = ['anthropic', 'openai', 'ollama'];

/** LAL_PROVIDER wins; otherwise the host decides (docs/behaviour.md 7.1). */
const pickProviderKind = (host: string, override: string | undefined): ProviderKind => {
  if (override !== undefined && override !== '') {
    const wanted = override.trim().toLowerCase();
    const kind = providerKinds.find(candidate => candidate === wanted);
    if (kind === undefined) {
      throw new ProviderError(
        'config',
        `LAL_PROVIDER must be one of ${providerKinds.join(', ')}; got ${JSON.stringify(override)}`,
      );
    }
    return kind;
  }
  if (host.includes('anthropic.com')) return 'anthropic';
  if (host.includes('/v1')) return 'openai';
  return 'ollama';
};

const readWholeNumber = (env: Env, name: string, { min }: { min: number }): number | undefined => {
  const text = env[name];
  if (text === undefined || text.trim() === '') return undefined;
  const value = Number(text.trim());
  if (!Number.isSafeInteger(value) || value < min) {
    throw new ProviderError(
      'config',
      `${name} must be a whole number of at least ${min}; got ${JSON.stringify(text)}`,
    );
  }
  return value;
};

/** The Ollama context window for a request budget and a reply limit: their sum, rounded up to 1024. */
export const contextWindowFor = (budget: number, maxTokens: number | undefined): number =>
  Math.ceil((budget + (maxTokens ?? DEFAULT_REPLY_ROOM)) / CONTEXT_STEP) * CONTEXT_STEP;
harden(contextWindowFor);

/** The Anthropic SDK adds `/v1/messages` itself, so a `/v1` suffix is dropped. */
const hostForKind = (host: string, kind: ProviderKind): string => {
  const trimmed = host.trim().replace(/\/+$/, '');
  if (kind === 'anthropic') return trimmed.replace(/\/v1$/, '');
  return trimmed;
};

export const readProviderConfig = (env: Env): ProviderConfig => {
  const rawHost =
    env.LAL_HOST !== undefined && env.LAL_HOST.trim() !== '' ? env.LAL_HOST : DEFAULT_HOST;
  if (!/^https?:\/\//i.test(rawHost.trim())) {
    // A host and port alone (Ollama's own OLLAMA_HOST form) lacks only its scheme: say the fix.
    const guess = rawHost.includes('://') ? '' : ` (did you mean "http://${rawHost.trim()}"?)`;
    throw new ProviderError(
      'config',
      `LAL_HOST must be an http:// or https:// address; got ${JSON.stringify(rawHost)}${guess}`,
    );
  }
  const kind = pickProviderKind(rawHost, env.LAL_PROVIDER);
  const authToken = readSecret(env, 'LAL_AUTH_TOKEN');
  if (kind === 'anthropic' && authToken === undefined) {
    throw new ProviderError(
      'config',
      'LAL_AUTH_TOKEN is required for Anthropic: set LAL_AUTH_TOKEN_FILE to a file holding your Anthropic API key (or LAL_AUTH_TOKEN to the key)',
    );
  }
  const modelFromEnv = env.LAL_MODEL !== undefined && env.LAL_MODEL.trim() !== '';
  const model =
    modelFromEnv && env.LAL_MODEL !== undefined
      ? env.LAL_MODEL.trim()
      : kind === 'anthropic'
        ? DEFAULT_ANTHROPIC_MODEL
        : DEFAULT_LOCAL_MODEL;
  const maxTokens = readWholeNumber(env, 'LAL_MAX_TOKENS', { min: 1 });
  const budget = readWholeNumber(env, 'LAL_CONTEXT_TOKENS', { min: 1 }) ?? DEFAULT_CONTEXT_TOKENS;
  const contextWindow =
    readWholeNumber(env, 'LAL_NUM_CTX', { min: 1 }) ?? contextWindowFor(budget, maxTokens);
  return {
    kind,
    host: hostForKind(rawHost, kind),
    model,
    modelFromEnv,
    authToken,
    contextWindow,
    maxTokens,
    maxMessages: readWholeNumber(env, 'LAL_MAX_MESSAGES', { min: 1 }),
    timeoutMs: readWholeNumber(env, 'LAL_REQUEST_TIMEOUT_MS', { min: 1 }) ?? DEFAULT_TIMEOUT_MS,
    maxRetries: readWholeNumber(env, 'LAL_MAX_RETRIES', { min: 0 }) ?? DEFAULT_MAX_RETRIES,
  };
};
harden(readProviderConfig);
