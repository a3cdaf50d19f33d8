/**
 * What a caller (the agent, the simulator, a test) may set beyond the env.
 */
import type { RetryPolicy } from './retry.js';

export interface ProviderOptions {
  /** One line per event worth telling (retries, failures); never secrets. */
  log?: (line: string) => void;
  /** The fetch the SDKs use (tests pass a recording one); default the global. */
  fetch?: typeof fetch;
  /** Overrides LAL_MAX_RETRIES. */
  maxRetries?: number;
  /** Overrides LAL_REQUEST_TIMEOUT_MS. */
  timeoutMs?: number;
  /**
   * Backoff timing for the retries we run ourselves (Ollama). The OpenAI and
   * Anthropic SDKs fix their own timing (0.5 s doubling, Retry-After wins).
   */
  retryDelays?: Partial<Pick<RetryPolicy, 'baseDelayMs' | 'maxDelayMs' | 'maxRetryAfterMs'>>;
}
