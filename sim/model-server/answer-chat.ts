/**
 * A chat request through a model double: parsed and validated by the
 * dialect, handed normalised to the reply script, and answered as the
 * script says (an answer, a failure, a delay, or a response left hanging).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { parseJson } from './http-io.js';
import type { PromptCache } from './prompt-cache.js';
import { frameText, type StreamedAnswer } from './stream-frames.js';
import type {
  ModelServerOptions,
  NormalizedRequest,
  RecordedRequest,
  ScriptedAnswer,
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

const CONTENT_TYPES = { sse: 'text/event-stream', ndjson: 'application/x-ndjson' };

/**
 * Writes a streamed answer frame by frame, `frameGapMs` apart; with
 * `stallAfterFrames` it stops there and leaves the response open (a model
 * that stalls mid-reply), until the client or close() ends it.
 */
const writeStream = async (
  stream: StreamedAnswer,
  reply: ScriptedAnswer,
  response: ServerResponse,
  record: RecordedRequest,
): Promise<void> => {
  response.writeHead(200, {
    'content-type': CONTENT_TYPES[stream.framing],
    'cache-control': 'no-cache',
  });
  for (const [index, frame] of stream.frames.entries()) {
    if (index === reply.stallAfterFrames || response.destroyed) return;
    if (index > 0 && reply.frameGapMs !== undefined) await sleep(reply.frameGapMs);
    response.write(frameText(stream.framing, frame));
    record.streamedFrames = index + 1;
  }
  response.end();
};

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
    if ('stream' in answer && answer.stream !== undefined) {
      record.status = 200;
      record.streamedFrames = 0;
      await writeStream(answer.stream, reply, response, record);
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
