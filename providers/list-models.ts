/**
 * Asks a model server which models it serves: `GET /models` on an
 * OpenAI-compatible server, `GET /api/tags` on Ollama, `GET /v1/models` on
 * Anthropic. Used to pick a model when LAL_MODEL is unset and to tell the
 * HOST what else it could choose. Failures come back as a short reason,
 * never a throw, so the fixed default stays the last resort.
 */
import type { ProviderConfig } from './config.js';
import { displayHost, redact } from './provider-errors.js';

export type ModelList = { ok: true; models: string[] } | { ok: false; reason: string };

const LIST_TIMEOUT_MS = 10_000;

const listUrl = (config: ProviderConfig): string => {
  switch (config.kind) {
    case 'openai':
      return `${config.host}/models`;
    case 'ollama':
      return `${config.host}/api/tags`;
    case 'anthropic':
      return `${config.host}/v1/models`;
    default:
      return config.host;
  }
};

const headersFor = (config: ProviderConfig): Record<string, string> => {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (config.kind === 'anthropic') headers['anthropic-version'] = '2023-06-01';
  if (config.authToken !== undefined) {
    if (config.kind === 'anthropic') headers['x-api-key'] = config.authToken;
    else headers.authorization = `Bearer ${config.authToken}`;
  }
  return headers;
};

/** The names a list answer holds: `data[].id` (OpenAI, Anthropic) or `models[].name` (Ollama). */
export const modelNamesOf = (body: unknown): string[] | undefined => {
  if (body === null || typeof body !== 'object') return undefined;
  const { data, models } = body as { data?: unknown; models?: unknown };
  const entries = Array.isArray(data) ? data : Array.isArray(models) ? models : undefined;
  if (entries === undefined) return undefined;
  const names: string[] = [];
  for (const entry of entries) {
    const record = (entry ?? {}) as { id?: unknown; name?: unknown; model?: unknown };
    const name = [record.id, record.name, record.model].find(
      value => typeof value === 'string' && value !== '',
    );
    if (typeof name === 'string' && !names.includes(name)) names.push(name);
  }
  return names;
};

export const listModels = async (
  config: ProviderConfig,
  options: { fetch?: typeof fetch; timeoutMs?: number } = {},
): Promise<ModelList> => {
  const fetchFn = options.fetch ?? globalThis.fetch;
  const where = displayHost(config.host);
  const secrets = [config.authToken];
  try {
    const response = await fetchFn(listUrl(config), {
      headers: headersFor(config),
      signal: AbortSignal.timeout(Math.min(options.timeoutMs ?? LIST_TIMEOUT_MS, LIST_TIMEOUT_MS)),
    });
    if (!response.ok) {
      await response.body?.cancel().catch(() => {});
      return {
        ok: false,
        reason: `${where} answered HTTP ${response.status} when asked for its models`,
      };
    }
    const names = modelNamesOf(await response.json());
    if (names === undefined) return { ok: false, reason: `${where} gave no model list` };
    return { ok: true, models: names };
  } catch (error) {
    const text = error instanceof Error ? error.message : String(error);
    return { ok: false, reason: redact(`could not ask ${where} for its models: ${text}`, secrets) };
  }
};
