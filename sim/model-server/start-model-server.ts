/**
 * A local HTTP double of a model service (OpenAI, Anthropic or Ollama) on
 * 127.0.0.1: it validates each chat request as the real service does, hands
 * a normalised view of it to a reply script, and answers in the service's
 * own JSON (success or error). Every request is recorded. Used by the
 * provider tests, the `npm start` simulator tests and `npm run bench`.
 */
import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { performance } from 'node:perf_hooks';
import { anthropicDialect } from './anthropic-dialect.js';
import { makeChatAnswerer, type SendJson } from './answer-chat.js';
import { hadAuth, parseJson, publicHeaders, readBody } from './http-io.js';
import { startListening } from './listening.js';
import { ollamaDialect } from './ollama-dialect.js';
import { openAIDialect } from './openai-dialect.js';
import { makePromptCache } from './prompt-cache.js';
import { makeRequestLog } from './request-log.js';
import type { ModelProtocol, ModelServer, ModelServerOptions, RecordedRequest } from './types.js';
import type { WireDialect } from './wire-dialect.js';

const dialects: Record<ModelProtocol, WireDialect> = {
  openai: openAIDialect,
  anthropic: anthropicDialect,
  ollama: ollamaDialect,
};

const DEFAULT_MODELS = ['double-model'];

export const startModelServer = async (options: ModelServerOptions): Promise<ModelServer> => {
  const dialect = dialects[options.protocol];
  const models = options.models ?? DEFAULT_MODELS;
  const log = makeRequestLog();
  let insideMs = 0;

  const send: SendJson = (response, record, status, body, extraHeaders = {}) => {
    record.status = status;
    if (status !== 200) record.errorBody = body;
    response.writeHead(status, {
      'content-type': 'application/json',
      'x-request-id': `req-${log.requests.length}`,
      ...extraHeaders,
    });
    response.end(JSON.stringify(body));
  };
  const promptCache = makePromptCache();
  const { answerChat, sendError } = makeChatAnswerer(dialect, options, models, promptCache, send);

  /** The model list (GET), a chat (POST), or 404; a credential checked first. */
  const route = async (
    bytes: Buffer,
    incoming: IncomingMessage,
    response: ServerResponse,
    record: RecordedRequest,
  ) => {
    const { method, path } = record;
    const authError = dialect.checkAuth(incoming.headers, options.apiKey);
    const getRoute = dialect.getRoutes[path];
    if ((method === 'GET' || method === 'HEAD') && getRoute !== undefined) {
      if (authError !== undefined) sendError(response, record, authError);
      else if (options.modelListStatus !== undefined && options.modelListStatus !== 200) {
        send(
          response,
          record,
          options.modelListStatus,
          dialect.errorBody(options.modelListStatus, 'listing models failed'),
        );
      } else send(response, record, 200, getRoute(models));
    } else if (method === 'POST' && path === dialect.chatPath) {
      if (authError !== undefined) sendError(response, record, authError);
      else await answerChat(bytes, incoming, response, record);
    } else {
      send(response, record, 404, dialect.errorBody(404, `Invalid URL (${method} ${path})`));
    }
  };

  const handle = async (incoming: IncomingMessage, response: ServerResponse): Promise<void> => {
    const started = performance.now();
    let record: RecordedRequest | undefined;
    response.on('close', () => {
      const ended = performance.now();
      insideMs += ended - started;
      if (record !== undefined) record.answeredAt = ended;
    });
    const bytes = await readBody(incoming);
    record = {
      method: incoming.method ?? 'GET',
      path: new URL(incoming.url ?? '/', 'http://127.0.0.1').pathname,
      headers: publicHeaders(incoming),
      receivedAt: started,
      hadAuth: hadAuth(incoming),
      bytes: bytes.length,
      body: parseJson(bytes)?.value,
    };
    log.add(record);
    await route(bytes, incoming, response, record);
  };

  const server = createServer((incoming, response) => {
    handle(incoming, response).catch((error: unknown) => {
      if (!response.headersSent) {
        response.writeHead(500, { 'content-type': 'application/json' });
        response.end(
          JSON.stringify(dialect.errorBody(500, `model server double failed: ${String(error)}`)),
        );
      }
    });
  });
  const { port, refuseConnections, acceptConnections, close } = await startListening(
    server,
    options.port ?? 0,
  );

  return {
    url: `http://127.0.0.1:${port}${dialect.basePath}`,
    protocol: options.protocol,
    requests: log.requests,
    waitForRequests: log.waitForRequests,
    timeInsideServerMs: () => insideMs,
    forgetPromptCache: () => promptCache.clear(),
    refuseConnections,
    acceptConnections,
    close,
  };
};
harden(startModelServer);
