/**
 * A local HTTP double of a model service (OpenAI, Anthropic or Ollama) on
 * 127.0.0.1: it validates each chat request as the real service does, hands
 * a normalised view of it to a reply script, and answers in the service's
 * own JSON (success or error). Every request is recorded. Used by the
 * provider tests, the `npm start` simulator tests and `npm run bench`.
 */
import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { anthropicDialect } from './anthropic-dialect.js';
import { ollamaDialect } from './ollama-dialect.js';
import { openAIDialect } from './openai-dialect.js';
import { makePromptCache } from './prompt-cache.js';
import type {
  ModelProtocol,
  ModelServer,
  ModelServerOptions,
  NormalizedRequest,
  RecordedRequest,
  ScriptedReply,
} from './types.js';
import type { WireDialect, WireError } from './wire-dialect.js';

const dialects: Record<ModelProtocol, WireDialect> = {
  openai: openAIDialect,
  anthropic: anthropicDialect,
  ollama: ollamaDialect,
};

const DEFAULT_MODELS = ['double-model'];
const SECRET_HEADERS = new Set(['authorization', 'x-api-key', 'cookie']);

const readBody = (request: IncomingMessage): Promise<Buffer> =>
  new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => resolve(Buffer.concat(chunks)));
    request.on('error', reject);
  });

const parseJson = (bytes: Buffer): { value: unknown } | undefined => {
  if (bytes.length === 0) return undefined;
  try {
    return { value: JSON.parse(bytes.toString('utf8')) as unknown };
  } catch {
    return undefined;
  }
};

const publicHeaders = (request: IncomingMessage): Record<string, string> => {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(request.headers)) {
    if (!SECRET_HEADERS.has(name) && value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return headers;
};

const sleep = (ms: number) => new Promise<void>(resolve => setTimeout(resolve, ms));

export const startModelServer = async (options: ModelServerOptions): Promise<ModelServer> => {
  const dialect = dialects[options.protocol];
  const models = options.models ?? DEFAULT_MODELS;
  const requests: RecordedRequest[] = [];
  const waiters: { count: number; resolve: () => void }[] = [];
  let chatCount = 0;
  let insideMs = 0;
  const promptCache = makePromptCache();

  const send = (
    response: ServerResponse,
    record: RecordedRequest,
    status: number,
    body: unknown,
    extraHeaders: Record<string, string> = {},
  ) => {
    record.status = status;
    if (status !== 200) record.errorBody = body;
    response.writeHead(status, { 'content-type': 'application/json', 'x-request-id': `req-${requests.length}`, ...extraHeaders });
    response.end(JSON.stringify(body));
  };
  const sendError = (response: ServerResponse, record: RecordedRequest, error: WireError) =>
    send(response, record, error.status, error.body);

  const perform = async (
    reply: ScriptedReply,
    request: NormalizedRequest,
    rawBody: unknown,
    response: ServerResponse,
    record: RecordedRequest,
  ): Promise<void> => {
    if ('delayMs' in reply) {
      await sleep(reply.delayMs);
      return perform(reply.then, request, rawBody, response, record);
    }
    if ('hang' in reply) return; // The response stays open until the client or close() ends it.
    if ('failure' in reply) {
      const { status, message, retryAfter } = reply.failure;
      send(response, record, status, dialect.errorBody(status, message), retryAfter === undefined ? {} : { 'retry-after': retryAfter });
      return;
    }
    const answer = dialect.renderAnswer(reply, request, rawBody, promptCache);
    if (answer.status !== 200) {
      sendError(response, record, answer as WireError);
      return;
    }
    if ('ndjson' in answer && answer.ndjson !== undefined) {
      record.status = 200;
      response.writeHead(200, { 'content-type': 'application/x-ndjson' });
      response.end(answer.ndjson.map(line => `${JSON.stringify(line)}\n`).join(''));
      return;
    }
    send(response, record, 200, answer.body);
  };

  const handleChat = async (
    bytes: Buffer,
    incoming: IncomingMessage,
    response: ServerResponse,
    record: RecordedRequest,
  ): Promise<void> => {
    const parsed = parseJson(bytes);
    if (parsed === undefined) {
      send(response, record, 400, dialect.errorBody(400, 'The request body is not valid JSON.'));
      return;
    }
    const result = dialect.parseChat(parsed.value, incoming.headers);
    if ('error' in result) {
      sendError(response, record, result.error);
      return;
    }
    if (!models.includes(result.chat.model) && options.models !== undefined) {
      sendError(response, record, dialect.modelNotFound(result.chat.model));
      return;
    }
    const normalized: NormalizedRequest = { ...result.chat, protocol: options.protocol, index: chatCount, bytes: bytes.length };
    chatCount += 1;
    record.normalized = normalized;
    let reply: ScriptedReply;
    try {
      reply = await options.reply(normalized);
    } catch (error) {
      const text = error instanceof Error ? error.message : String(error);
      send(response, record, 500, dialect.errorBody(500, `test script error: ${text}`));
      return;
    }
    await perform(reply, normalized, parsed.value, response, record);
  };

  const handle = async (incoming: IncomingMessage, response: ServerResponse): Promise<void> => {
    const started = performance.now();
    response.on('close', () => {
      insideMs += performance.now() - started;
    });
    const bytes = await readBody(incoming);
    const method = incoming.method ?? 'GET';
    const path = new URL(incoming.url ?? '/', 'http://127.0.0.1').pathname;
    const record: RecordedRequest = {
      method,
      path,
      headers: publicHeaders(incoming),
      receivedAt: started,
      hadAuth: incoming.headers.authorization !== undefined || incoming.headers['x-api-key'] !== undefined,
      bytes: bytes.length,
      body: parseJson(bytes)?.value,
    };
    requests.push(record);
    for (const waiter of waiters.filter(candidate => requests.length >= candidate.count)) {
      waiters.splice(waiters.indexOf(waiter), 1);
      waiter.resolve();
    }

    const authError = dialect.checkAuth(incoming.headers, options.apiKey);
    const getRoute = dialect.getRoutes[path];
    if ((method === 'GET' || method === 'HEAD') && getRoute !== undefined) {
      if (authError !== undefined) sendError(response, record, authError);
      else if (options.modelListStatus !== undefined && options.modelListStatus !== 200) {
        send(response, record, options.modelListStatus, dialect.errorBody(options.modelListStatus, 'listing models failed'));
      } else send(response, record, 200, getRoute(models));
    } else if (method === 'POST' && path === dialect.chatPath) {
      if (authError !== undefined) sendError(response, record, authError);
      else await handleChat(bytes, incoming, response, record);
    } else {
      send(response, record, 404, dialect.errorBody(404, `Invalid URL (${method} ${path})`));
    }
  };

  const server = createServer((incoming, response) => {
    handle(incoming, response).catch((error: unknown) => {
      if (!response.headersSent) {
        response.writeHead(500, { 'content-type': 'application/json' });
        response.end(JSON.stringify(dialect.errorBody(500, `model server double failed: ${String(error)}`)));
      }
    });
  });
  const listen = (port: number) =>
    new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => {
        server.off('error', reject);
        resolve();
      });
    });
  const stopListening = () =>
    new Promise<void>((resolve, reject) => {
      server.close(error => (error ? reject(error) : resolve()));
      server.closeAllConnections();
    });
  await listen(options.port ?? 0);
  const { port } = server.address() as AddressInfo;
  let listening = true;

  return {
    url: `http://127.0.0.1:${port}${dialect.basePath}`,
    protocol: options.protocol,
    requests,
    waitForRequests: count =>
      requests.length >= count ? Promise.resolve() : new Promise(resolve => waiters.push({ count, resolve })),
    timeInsideServerMs: () => insideMs,
    refuseConnections: async () => {
      if (!listening) return;
      listening = false;
      await stopListening();
    },
    acceptConnections: async () => {
      if (listening) return;
      await listen(port);
      listening = true;
    },
    close: async () => {
      if (!listening) return;
      listening = false;
      await stopListening();
    },
  };
};
