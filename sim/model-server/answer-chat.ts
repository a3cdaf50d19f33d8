/**
 * A chat request through a model double: parsed and validated by the
 * dialect, handed normalised to the reply script, and answered as the
 * script says (an answer, a failure, a delay, or a response left hanging).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { parseJson } from './http-io.js';
import type { PromptCache } from './prompt-cache.js';
import type {
  ModelServerOptions,
  NormalizedRequest,
  RecordedRequest,
  ScriptedReply,
} from './types.js';
import type { WireDialect, WireError } from './wire-dialect.js';
import { describeError } from '../../providers/describe-error.js';

/** Writes a JSON answer and records its status (and body, when it is an error). */
export type SendJson = (
  response: ServerResponse,
  record: RecordedRequest,
  status: number,
  body: unknown,
  extraHeaders?: Record<string, string>,
) => void;

const sleep = (ms: number) => new Promise<void>(resolve => setTimeout(resolve, ms));

export const makeChatAnswerer = (
  dialect: WireDialect,
  options: ModelServerOptions,
  models: readonly string[],
  promptCache: PromptCache,
  send: SendJson,
) => {
  const sendError = (response: ServerResponse, record: RecordedRequest, error: WireError) =>
    send(response, record, error.status, error.body);
  let chatCount = 0;

  const perform = async (
    reply: ScriptedReply,
    request: NormalizedRequest,
    rawBody: unknown,
    response: ServerResponse,
    record: RecordedRequest,
  ): Promise<void> => {
    if ('delayMs' in reply) {
      await sleep(reply.delayMs);
      await perform(reply.then, request, rawBody, response, record);
      return;
    }
    // The response stays open until the client or close() ends it.
    if ('hang' in reply) return;
    if ('failure' in reply) {
      const { status, message, retryAfter } = reply.failure;
      send(
        response,
        record,
        status,
        dialect.errorBody(status, message),
        retryAfter === undefined ? {} : { 'retry-after': retryAfter },
      );
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

  const answerChat = async (
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
    const normalized: NormalizedRequest = {
      ...result.chat,
      protocol: options.protocol,
      index: chatCount,
      bytes: bytes.length,
    };
    chatCount += 1;
    record.normalized = normalized;
    let reply: ScriptedReply;
    try {
      reply = await options.reply(normalized);
    } catch (error) {
      const text = describeError(error);
      send(response, record, 500, dialect.errorBody(500, `test script error: ${text}`));
      return;
    }
    await perform(reply, normalized, parsed.value, response, record);
  };

  return { answerChat, sendError };
};
harden(makeChatAnswerer);
