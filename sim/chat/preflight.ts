/**
 * Before anything starts: is a model server answering where the env says?
 * The answer is one line a person can act on, never a stack trace, and never
 * the auth token.
 */
import { readProviderConfig, type ProviderConfig } from '../../providers/config.js';

export type Preflight =
  { ok: true; config: ProviderConfig; warning?: string } | { ok: false; line: string };

export type FetchFn = (
  url: string,
  init: { headers: Record<string, string>; signal: AbortSignal },
) => Promise<{ status: number; json(): Promise<unknown> }>;

const TIMEOUT_MS = 3_000;
const WHAT_TO_SET = 'start Ollama, or set LAL_HOST (and LAL_MODEL, LAL_AUTH_TOKEN); see README.';

/** Where to ask first, per kind: a cheap GET every such server answers. */
const probePaths = (config: ProviderConfig): string[] => {
  switch (config.kind) {
    case 'ollama':
      return ['/api/version', '/api/tags'];
    case 'openai':
      return ['/models'];
    case 'anthropic':
      return ['/v1/models'];
    default:
      return [''];
  }
};

const authHeaders = (config: ProviderConfig): Record<string, string> => {
  if (config.authToken === undefined) return {};
  return config.kind === 'anthropic'
    ? { 'x-api-key': config.authToken, 'anthropic-version': '2023-06-01' }
    : { authorization: `Bearer ${config.authToken}` };
};

/** The model names an Ollama /api/tags answer lists. */
const ollamaModels = (body: unknown): string[] | undefined => {
  const models = (body as { models?: unknown } | null)?.models;
  if (!Array.isArray(models)) return undefined;
  return models.map(entry => String((entry as { name?: unknown }).name ?? ''));
};

const hasModel = (names: readonly string[], wanted: string): boolean =>
  names.some(name => name === wanted || name === `${wanted}:latest`);

export const checkModelServer = async (
  env: Record<string, string>,
  fetchFn: FetchFn = fetch,
): Promise<Preflight> => {
  let config: ProviderConfig;
  try {
    config = readProviderConfig(env);
  } catch (error) {
    // Config errors name the variable and never its value when it is secret.
    return {
      ok: false,
      line: `${error instanceof Error ? error.message : String(error)}; see README.`,
    };
  }
  const headers = authHeaders(config);
  let answered: { status: number; body: unknown; path: string } | undefined;
  for (const path of probePaths(config)) {
    try {
      const response = await fetchFn(`${config.host}${path}`, {
        headers,
        signal: AbortSignal.timeout(TIMEOUT_MS),
      });
      const body = await response.json().catch(() => undefined);
      answered = { status: response.status, body, path };
      if (response.status < 400) break;
    } catch {
      // Refused, unreachable or too slow: try the next path, then give up.
    }
  }
  if (answered === undefined) {
    return { ok: false, line: `No model server answers at ${config.host} — ${WHAT_TO_SET}` };
  }
  if (answered.status === 401 || answered.status === 403) {
    return {
      ok: false,
      line: `The model server at ${config.host} refuses the credentials (HTTP ${answered.status}) — set LAL_AUTH_TOKEN to a valid key; see README.`,
    };
  }
  if (config.kind === 'ollama') {
    const tags = answered.path === '/api/tags' ? answered.body : await fetchTags(config, fetchFn);
    const names = ollamaModels(tags);
    // With LAL_MODEL unset the agent takes the first model listed; only an empty list leaves it without one.
    if (
      names !== undefined &&
      (config.modelFromEnv ? !hasModel(names, config.model) : names.length === 0)
    ) {
      return {
        ok: true,
        config,
        warning: `Ollama at ${config.host} has no model "${config.model}" — run \`ollama pull ${config.model}\` or set LAL_MODEL (it has: ${names.join(', ') || 'none'}).`,
      };
    }
  }
  return { ok: true, config };
};

const fetchTags = async (config: ProviderConfig, fetchFn: FetchFn): Promise<unknown> => {
  try {
    const response = await fetchFn(`${config.host}/api/tags`, {
      headers: authHeaders(config),
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
    return response.status < 400 ? await response.json() : undefined;
  } catch {
    return undefined;
  }
};
