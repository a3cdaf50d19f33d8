/**
 * Asks a model server which models it serves: `GET /models` on an
 * OpenAI-compatible server, `GET /api/tags` on Ollama, `GET /v1/models` on
 * Anthropic. Used to pick a model when LAL_MODEL is unset, to check the one it
 * names, and to tell the HOST what else it could choose. Failures come back as
 * data, never a throw, so the fixed default stays the last resort.
 */
import type { ProviderConfig } from './config.js';
import { displayHost } from './display-host.js';
import { redact } from './provider-errors.js';
import { badPortProblem, isBadPort } from './bad-port.js';

export type ModelList = { ok: true; models: string[] } | { ok: false; reason: string };

/** What one `GET` of a model list gave, in the terms a person acts on. */
export type ListAnswer =
  | { kind: 'list'; models: string[]; shape: ListShape }
  | { kind: 'unreachable'; reason: string }
  /** No answer within `ms`: the request was sent, or the connection never made (check-server.ts tells which). */
  | { kind: 'silent'; ms: number }
  | { kind: 'bad-port' }
  /** `anthropic`: the error came in Anthropic's envelope (`type: "error"`), as its 401 to a list asked without a key. */
  | { kind: 'http'; status: number; anthropic: boolean }
  | { kind: 'web-page' }
  | { kind: 'not-a-list' };

/** Which API's list it looked like (OpenAI says `object: "list"`, Anthropic `has_more`, Ollama `models`). */
type ListShape = 'openai' | 'anthropic' | 'ollama' | 'unknown';

const shapeOf = (body: unknown): ListShape => {
  const record = (body ?? {}) as { object?: unknown; has_more?: unknown; models?: unknown };
  if (record.object === 'list') return 'openai';
  if (typeof record.has_more === 'boolean') return 'anthropic';
  if (Array.isArray(record.models)) return 'ollama';
  return 'unknown';
};

const LIST_TIMEOUT_MS = 10_000;

export const listUrl = (config: ProviderConfig): string => {
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
harden(listUrl);

const listHeaders = (config: ProviderConfig): Record<string, string> => {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (config.kind === 'anthropic') headers['anthropic-version'] = '2023-06-01';
  if (config.authToken !== undefined) {
    if (config.kind === 'anthropic') headers['x-api-key'] = config.authToken;
    else headers.authorization = `Bearer ${config.authToken}`;
  }
  return headers;
};

/** The names a list answer holds: `data[].id` (OpenAI, Anthropic) or `models[].name` (Ollama). */
const modelNamesOf = (body: unknown): string[] | undefined => {
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

/** Anthropic's API answers every error as `{ type: 'error', error: { type, message } }` (others do not). */
const isAnthropicError = (text: string): boolean => {
  try {
    const body = JSON.parse(text) as { type?: unknown; error?: { type?: unknown } } | null;
    return body?.type === 'error' && typeof body.error?.type === 'string';
  } catch {
    return false;
  }
};

/** A body that is a web page (a login page, a proxy's error page, the wrong port's app). */
const isWebPage = (contentType: string | null, text: string): boolean =>
  /html/i.test(contentType ?? '') || /^\s*<(!doctype|html|head|body)\b/i.test(text);

export interface ListOptions {
  fetch?: typeof fetch;
  timeoutMs?: number;
}

/** One `GET` of `url` with the config's credentials, read as a model list. */
export const fetchModelList = async (
  url: string,
  config: ProviderConfig,
  options: ListOptions = {},
): Promise<ListAnswer> => {
  const fetchFn = options.fetch ?? globalThis.fetch;
  const ms = Math.min(options.timeoutMs ?? LIST_TIMEOUT_MS, LIST_TIMEOUT_MS);
  try {
    const response = await fetchFn(url, {
      headers: listHeaders(config),
      signal: AbortSignal.timeout(ms),
    });
    const text = await response.text();
    if (isWebPage(response.headers.get('content-type'), text)) return { kind: 'web-page' };
    if (!response.ok)
      return { kind: 'http', status: response.status, anthropic: isAnthropicError(text) };
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      return { kind: 'not-a-list' };
    }
    const models = modelNamesOf(body);
    return models === undefined
      ? { kind: 'not-a-list' }
      : { kind: 'list', models, shape: shapeOf(body) };
  } catch (error) {
    if (isBadPort(error)) return { kind: 'bad-port' };
    // AbortSignal.timeout's own error: no answer in time, not a refusal.
    if ((error as { name?: unknown } | null)?.name === 'TimeoutError')
      return { kind: 'silent', ms };
    const cause = (error as { cause?: { code?: unknown; message?: unknown } } | null)?.cause;
    const text =
      typeof cause?.code === 'string'
        ? cause.code
        : error instanceof Error
          ? error.message
          : String(error);
    return { kind: 'unreachable', reason: redact(text, [config.authToken]) };
  }
};
harden(fetchModelList);

/** A time limit as a person reads it: "3 s". */
export const seconds = (ms: number): string => `${Math.round(ms / 100) / 10} s`;
harden(seconds);

/** The reason a list answer gives no models, in words. */
export const listProblem = (answer: Exclude<ListAnswer, { kind: 'list' }>, where: string) => {
  switch (answer.kind) {
    case 'bad-port':
      return badPortProblem(where);
    case 'unreachable':
      return `could not ask ${where} for its models: ${answer.reason}`;
    case 'silent':
      return `${where} gave no answer within ${seconds(answer.ms)} when asked for its models`;
    case 'http':
      return `${where} answered HTTP ${answer.status} when asked for its models`;
    case 'web-page':
      return `${where} answered with a web page, not a model list`;
    default:
      return `${where} gave no model list`;
  }
};
harden(listProblem);

export const listModels = async (
  config: ProviderConfig,
  options: ListOptions = {},
): Promise<ModelList> => {
  const answer = await fetchModelList(listUrl(config), config, options);
  if (answer.kind === 'list') return { ok: true, models: answer.models };
  return { ok: false, reason: listProblem(answer, displayHost(config.host)) };
};
harden(listModels);
