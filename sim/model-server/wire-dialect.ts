/**
 * What each protocol double must say: how it checks credentials, validates
 * and reads a chat request, words its errors, and renders an answer.
 */
import type { IncomingHttpHeaders } from 'node:http';
import type { PromptCache } from './prompt-cache.js';
import type { StreamedAnswer } from './stream-frames.js';
import type { ModelProtocol, NormalizedRequest, ScriptedAnswer } from './types.js';

export interface WireError {
  status: number;
  body: unknown;
}

/** A parsed chat request, before the server numbers it. */
export type ParsedChat = Omit<NormalizedRequest, 'index' | 'bytes' | 'protocol'>;

interface WireAnswer {
  status: 200;
  /** A JSON body, or the same answer streamed (when the request asked for a stream). */
  body?: unknown;
  stream?: StreamedAnswer;
}

export interface WireDialect {
  protocol: ModelProtocol;
  /** What LAL_HOST carries after host:port ('/v1' for OpenAI). */
  basePath: string;
  chatPath: string;
  getRoutes: Record<string, (models: readonly string[]) => unknown>;
  checkAuth(headers: IncomingHttpHeaders, apiKey: string | undefined): WireError | undefined;
  parseChat(
    body: unknown,
    headers: IncomingHttpHeaders,
  ): { chat: ParsedChat } | { error: WireError };
  modelNotFound(model: string): WireError;
  /** The service's error body for a status (scripted failures, unknown routes). */
  errorBody(status: number, message: string | undefined): unknown;
  /** `cache` is this server's prompt cache, for the cached tokens its usage reports. */
  renderAnswer(
    answer: ScriptedAnswer,
    request: NormalizedRequest,
    rawBody: unknown,
    cache: PromptCache,
  ): WireAnswer | WireError;
}

export const isRecord = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);
harden(isRecord);

/** A rough token count (4 bytes a token), for usage when a script gives none. */
export const estimateTokens = (text: string): number =>
  Math.max(1, Math.ceil(Buffer.byteLength(text) / 4));
harden(estimateTokens);

let idCounter = 0;
/** Ids that look like the service's own (call_…, toolu_…, msg_…). */
export const makeWireId = (prefix: string): string => {
  idCounter += 1;
  return `${prefix}${Date.now().toString(36)}${idCounter.toString(36).padStart(4, '0')}`;
};
harden(makeWireId);
