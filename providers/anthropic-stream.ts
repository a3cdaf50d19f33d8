/**
 * Collects Anthropic's event stream (message_start, content_block_start /
 * delta / stop, message_delta, message_stop) into the whole message it
 * stands for, so tool calls and truncation are judged on the whole reply by
 * the same code as an unstreamed one. Text is told to `onText` (all of it so
 * far) as it grows. A tool_use's input arrives as pieces of JSON text, parsed
 * once its block is complete; text that does not parse is kept as it came.
 */
import type Anthropic from '@anthropic-ai/sdk';

type StreamEvent = Anthropic.Messages.RawMessageStreamEvent;

interface BlockSoFar {
  type: string;
  text: string;
  json: string;
  start: Record<string, unknown>;
}

/** The input of a tool_use: the JSON it was sent as, or that text itself when it is not whole. */
const inputOf = (block: BlockSoFar): unknown => {
  if (block.json === '') return block.start.input ?? {};
  try {
    return JSON.parse(block.json);
  } catch {
    return block.json;
  }
};

export const makeAnthropicStreamCollector = (onText?: (textSoFar: string) => void) => {
  let message: Record<string, unknown> | undefined;
  const blocks: BlockSoFar[] = [];
  let usage: Record<string, unknown> = {};
  let stopReason: unknown = null;
  let text = '';

  const addDelta = (block: BlockSoFar | undefined, delta: Record<string, unknown>) => {
    if (block === undefined) return;
    if (delta.type === 'text_delta' && typeof delta.text === 'string') {
      block.text += delta.text;
      text += delta.text;
      onText?.(text);
    } else if (delta.type === 'input_json_delta' && typeof delta.partial_json === 'string') {
      block.json += delta.partial_json;
    }
  };

  const add = (event: StreamEvent) => {
    switch (event.type) {
      case 'message_start':
        message = event.message as unknown as Record<string, unknown>;
        usage = { ...(event.message.usage as unknown as Record<string, unknown>) };
        break;
      case 'content_block_start': {
        const start = event.content_block as unknown as Record<string, unknown>;
        const initial = typeof start.text === 'string' ? start.text : '';
        blocks[event.index] = { type: String(start.type), text: initial, json: '', start };
        break;
      }
      case 'content_block_delta':
        addDelta(blocks[event.index], event.delta as unknown as Record<string, unknown>);
        break;
      case 'message_delta':
        stopReason = event.delta.stop_reason;
        // The counts here are cumulative: they replace those of message_start.
        for (const [key, value] of Object.entries(event.usage ?? {}))
          if (typeof value === 'number') usage[key] = value;
        break;
      default:
        break;
    }
  };

  /** The whole message, or undefined when no message_start came (not a message stream). */
  const whole = (): Anthropic.Messages.Message | undefined => {
    if (message === undefined) return undefined;
    const content = blocks
      .filter(block => block !== undefined)
      .map(block => {
        if (block.type === 'text') return { type: 'text', text: block.text };
        if (block.type === 'tool_use') return { ...block.start, input: inputOf(block) };
        return block.start;
      });
    return {
      ...message,
      content,
      stop_reason: stopReason,
      usage,
    } as unknown as Anthropic.Messages.Message;
  };

  return { add, whole };
};
harden(makeAnthropicStreamCollector);
