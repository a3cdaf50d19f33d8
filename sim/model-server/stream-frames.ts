/**
 * A whole answer of a model double, streamed as each service streams it:
 * OpenAI's Server-Sent Events of `chat.completion.chunk` objects ending with
 * `data: [DONE]`, Anthropic's named events (message_start,
 * content_block_start/delta/stop, message_delta, message_stop), Ollama's
 * NDJSON lines ending with one `done: true`. Each is made from the body the
 * double would have answered unstreamed, so both forms say the same thing.
 * The frames are written at once and kept by no one, so they are not
 * hardened: under lockdown harden costs microseconds an object, which made
 * the double's "answers at once" take a third of a millisecond per answer
 * (docs/benchmark.md, figure 15).
 */
import { isRecord } from './wire-dialect.js';

/** One event of a stream; `data` is JSON, or the literal text of OpenAI's `[DONE]`. */
export interface StreamFrame {
  event?: string;
  data: unknown;
}

export interface StreamedAnswer {
  framing: 'sse' | 'ndjson';
  frames: StreamFrame[];
}

const OPENAI_DONE = '[DONE]';

/** Words with the space after them: text arrives a few characters at a time, as from a model. */
const textPieces = (text: string): string[] => text.match(/\s*\S+\s*/g) ?? (text ? [text] : []);

/** JSON text in pieces of a dozen characters (arguments arrive split anywhere). */
const jsonPieces = (json: string): string[] => json.match(/[\s\S]{1,12}/g) ?? [];

const recordAt = (value: unknown, key: string): Record<string, unknown> => {
  const inner = isRecord(value) ? value[key] : undefined;
  return isRecord(inner) ? inner : {};
};

/** OpenAI's chunks; usage (and llama.cpp's timings) in a last chunk with no choices, when asked for. */
export const openAIStream = (body: Record<string, unknown>, includeUsage: boolean) => {
  const [choice] = Array.isArray(body.choices) ? (body.choices as unknown[]) : [];
  const message = recordAt({ choice }, 'choice').message;
  const { content, tool_calls: calls } = isRecord(message) ? message : {};
  const base = {
    id: body.id,
    object: 'chat.completion.chunk',
    created: body.created,
    model: body.model,
    system_fingerprint: body.system_fingerprint ?? null,
  };
  const chunk = (delta: Record<string, unknown>, finishReason: unknown = null): StreamFrame => ({
    data: {
      ...base,
      choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }],
      ...(includeUsage ? { usage: null } : {}),
    },
  });
  const frames: StreamFrame[] = [chunk({ role: 'assistant', content: '', refusal: null })];
  for (const piece of textPieces(typeof content === 'string' ? content : ''))
    frames.push(chunk({ content: piece }));
  for (const [index, call] of (Array.isArray(calls) ? calls : []).entries()) {
    const fn = recordAt(call, 'function');
    const id = isRecord(call) ? call.id : undefined;
    frames.push(
      chunk({
        tool_calls: [{ index, id, type: 'function', function: { name: fn.name, arguments: '' } }],
      }),
    );
    for (const piece of jsonPieces(typeof fn.arguments === 'string' ? fn.arguments : ''))
      frames.push(chunk({ tool_calls: [{ index, function: { arguments: piece } }] }));
  }
  frames.push(chunk({}, isRecord(choice) ? choice.finish_reason : 'stop'));
  if (includeUsage) {
    frames.push({
      data: {
        ...base,
        choices: [],
        usage: body.usage,
        ...(body.timings === undefined ? {} : { timings: body.timings }),
      },
    });
  }
  frames.push({ data: OPENAI_DONE });
  const answer: StreamedAnswer = { framing: 'sse', frames };
  return answer;
};
harden(openAIStream);

/** Anthropic's events: the blocks one by one, usage in message_start and message_delta. */
export const anthropicStream = (body: Record<string, unknown>) => {
  const usage = recordAt(body, 'usage');
  const frames: StreamFrame[] = [];
  const event = (type: string, data: Record<string, unknown>) =>
    frames.push({ event: type, data: { type, ...data } });
  event('message_start', {
    message: {
      ...body,
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: { ...usage, output_tokens: 1 },
    },
  });
  event('ping', {});
  const blocks = Array.isArray(body.content) ? (body.content as unknown[]) : [];
  for (const [index, block] of blocks.entries()) {
    if (!isRecord(block)) continue;
    if (block.type === 'tool_use') {
      event('content_block_start', { index, content_block: { ...block, input: {} } });
      for (const piece of jsonPieces(JSON.stringify(block.input ?? {})))
        event('content_block_delta', {
          index,
          delta: { type: 'input_json_delta', partial_json: piece },
        });
    } else {
      event('content_block_start', { index, content_block: { type: 'text', text: '' } });
      for (const piece of textPieces(typeof block.text === 'string' ? block.text : ''))
        event('content_block_delta', { index, delta: { type: 'text_delta', text: piece } });
    }
    event('content_block_stop', { index });
  }
  event('message_delta', {
    delta: { stop_reason: body.stop_reason, stop_sequence: null },
    usage: { output_tokens: usage.output_tokens },
  });
  event('message_stop', {});
  const answer: StreamedAnswer = { framing: 'sse', frames };
  return answer;
};
harden(anthropicStream);

/** Ollama's lines: the text piece by piece, the tool calls whole in one line, then the counts with done. */
export const ollamaStream = (body: Record<string, unknown>) => {
  const { content, tool_calls: calls } = recordAt(body, 'message');
  const line = (message: Record<string, unknown>): StreamFrame => ({
    data: {
      model: body.model,
      created_at: body.created_at,
      message: { role: 'assistant', content: '', ...message },
      done: false,
    },
  });
  const frames = textPieces(typeof content === 'string' ? content : '').map(piece =>
    line({ content: piece }),
  );
  if (Array.isArray(calls) && calls.length > 0) frames.push(line({ tool_calls: calls }));
  frames.push({ data: { ...body, message: { role: 'assistant', content: '' } } });
  const answer: StreamedAnswer = { framing: 'ndjson', frames };
  return answer;
};
harden(ollamaStream);

/** One frame as written on the wire. */
export const frameText = (framing: StreamedAnswer['framing'], frame: StreamFrame): string => {
  const data = frame.data === OPENAI_DONE ? OPENAI_DONE : JSON.stringify(frame.data);
  if (framing === 'ndjson') return `${data}\n`;
  return `${frame.event === undefined ? '' : `event: ${frame.event}\n`}data: ${data}\n\n`;
};
harden(frameText);
