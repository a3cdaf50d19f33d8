/**
 * Collects Ollama's NDJSON stream of chat parts into the whole reply it
 * stands for (the text joined, the tool calls of every part, the counts and
 * done_reason of the last), so tool calls and truncation are judged on the
 * whole reply by the same code as an unstreamed one. Text is told to
 * `onText` (all of it so far) as it grows.
 */
import type { ChatResponse } from 'ollama';

export const makeOllamaStreamCollector = (onText?: (textSoFar: string) => void) => {
  let text = '';
  const toolCalls: NonNullable<ChatResponse['message']['tool_calls']> = [];
  let last: ChatResponse | undefined;

  const add = (part: ChatResponse) => {
    last = part;
    const message = part?.message as Partial<ChatResponse['message']> | undefined;
    if (Array.isArray(message?.tool_calls)) toolCalls.push(...message.tool_calls);
    if (typeof message?.content === 'string' && message.content !== '') {
      text += message.content;
      onText?.(text);
    }
  };

  /** The whole reply in the unstreamed shape; the last part as it came when it has no message. */
  const whole = (): ChatResponse | undefined => {
    if (last === undefined || last === null || typeof last.message !== 'object' || !last.message)
      return last;
    return {
      ...last,
      message: {
        ...last.message,
        content: text,
        ...(toolCalls.length > 0 ? { tool_calls: toolCalls } : {}),
      },
    };
  };

  return { add, whole };
};
harden(makeOllamaStreamCollector);
