/**
 * The providers' settings as rows of the settings table (./setting-row.ts):
 * the defaults are the ones the readers use (./config.ts,
 * ./fallback-config.ts), so the page cannot drift from the code.
 */
import {
  contextWindowFor,
  DEFAULT_ANTHROPIC_MAX_TOKENS,
  DEFAULT_ANTHROPIC_MODEL,
  DEFAULT_CONTEXT_TOKENS,
  DEFAULT_HOST,
  DEFAULT_LOCAL_MODEL,
  DEFAULT_MAX_RETRIES,
  DEFAULT_TIMEOUT_MS,
} from './config.js';
import { DEFAULT_FALLBACK_COOLDOWN_MS } from './fallback-config.js';
import { settingNames, type SettingRow } from './setting-row.js';

const CONFIG = 'readProviderConfig (providers/config.ts)';
const FALLBACK = 'readFallbackConfigs, readFallbackCoolDownMs (providers/fallback-config.ts)';

export const PROVIDER_SETTINGS: readonly SettingRow[] = harden([
  {
    env: 'LAL_HOST',
    default: `\`${DEFAULT_HOST}\``,
    read: `${CONFIG}: an http:// or https:// address`,
    doc: "the model server: contains `anthropic.com` → Anthropic; contains `/v1` → OpenAI-compatible (llama.cpp, vLLM, OpenAI, OpenRouter, Ollama's `/v1`); otherwise native Ollama",
  },
  {
    env: 'LAL_PROVIDER',
    default: 'from `LAL_HOST`',
    read: `${CONFIG}: \`anthropic\`, \`openai\` or \`ollama\``,
    doc: '`anthropic`, `openai` or `ollama`; wins over the guess from the host',
  },
  {
    env: 'LAL_MODEL',
    default: `the first model the server lists (\`/v1/models\`, \`/api/tags\`, Anthropic's models list); \`${DEFAULT_ANTHROPIC_MODEL}\` for Anthropic, else \`${DEFAULT_LOCAL_MODEL}\`, when it lists none`,
    read: `${CONFIG}, then the start-up check (providers/check-server.ts)`,
    doc: 'the model name',
  },
  {
    env: 'LAL_FALLBACK',
    default: 'none',
    read: `${FALLBACK}: comma-separated \`URL|model|TOKEN_VARIABLE\` entries`,
    doc: "further model servers to try, in order, when the current one fails in a way retrying will not mend soon (connection refused, 5xx after retries, 429 after retries or with a `Retry-After` over a minute, a timeout): comma-separated `URL\\|model\\|TOKEN_VARIABLE` entries; the model is optional (then detected), the provider is guessed from the URL as for `LAL_HOST` (an optional fourth part names it), the token is read from the named variable or its `_FILE` form and redacted like `LAL_AUTH_TOKEN`. Each turn's usage says which model served it",
  },
  {
    env: 'LAL_FALLBACK_COOLDOWN_MS',
    default: String(DEFAULT_FALLBACK_COOLDOWN_MS),
    read: `${FALLBACK}: a whole number of milliseconds`,
    doc: 'how long the agent stays on a fallback server before it tries the first one again',
  },
  {
    env: 'LAL_AUTH_TOKEN',
    default: 'none',
    read: 'readSecret (providers/read-secret.ts)',
    doc: 'API key (required for Anthropic; sent as a bearer token to others when set). Never logged',
  },
  {
    env: 'LAL_AUTH_TOKEN_FILE',
    default: 'none',
    read: 'readSecret (providers/read-secret.ts): an absolute path',
    doc: 'recommended instead of `LAL_AUTH_TOKEN`: an absolute path (the setup scripts make a relative one absolute) to a file holding the key, read when the agent starts; the daemon then stores the path, not the key. Setting both is an error',
  },
  {
    env: 'LAL_MAX_TOKENS',
    default: `service default (${DEFAULT_ANTHROPIC_MAX_TOKENS} for Anthropic)`,
    read: `${CONFIG}: a positive whole number`,
    doc: 'the most tokens one reply may have',
  },
  {
    env: 'LAL_MAX_MESSAGES',
    default: 'all',
    read: `${CONFIG}: a positive whole number`,
    doc: 'keep only the last N messages of each request (system prompt and call/result pairs kept whole)',
  },
  {
    env: 'LAL_REQUEST_TIMEOUT_MS',
    default: String(DEFAULT_TIMEOUT_MS),
    read: `${CONFIG}: a positive whole number`,
    doc: "one HTTP attempt's time limit",
  },
  {
    env: 'LAL_NUM_CTX',
    default: `\`LAL_CONTEXT_TOKENS\` + reply room, rounded up to 1024 (${contextWindowFor(DEFAULT_CONTEXT_TOKENS, undefined)})`,
    read: `${CONFIG}: a positive whole number`,
    doc: "context window asked of a native Ollama server (its own default is smaller than the agent's first request, and it cuts a long prompt silently)",
  },
  {
    env: 'LAL_MAX_RETRIES',
    default: String(DEFAULT_MAX_RETRIES),
    read: `${CONFIG}: a whole number, 0 or more`,
    doc: 'retries of 429, 5xx, connection errors and timeouts (backoff honours `Retry-After`)',
  },
]);
harden(PROVIDER_SETTINGS);

/** Every variable the providers read. */
export const PROVIDER_ENV_NAMES: readonly string[] = settingNames(PROVIDER_SETTINGS);
harden(PROVIDER_ENV_NAMES);
