/**
 * LAL_MAX_MESSAGES: keep only the most recent messages of a history, without
 * ever dropping the system prompt or separating a tool call from its results.
 */
import type { ChatMessage } from './types.js';

/**
 * Keeps every system message and, of the others, about the last `maxMessages`.
 * The window starts on a group boundary: tool results whose call fell outside
 * it are dropped with it (so the window may hold fewer than `maxMessages`);
 * if that would leave only tool results, the window grows back to their call
 * instead, since a request must carry at least the latest exchange.
 */
export const keepLastMessages = (
  messages: readonly ChatMessage[],
  maxMessages: number | undefined,
): ChatMessage[] => {
  const system = messages.filter(message => message.role === 'system');
  const rest = messages.filter(message => message.role !== 'system');
  if (maxMessages === undefined || rest.length <= maxMessages) return [...messages];

  let start = rest.length - maxMessages;
  while (start < rest.length && rest[start]?.role === 'tool') start += 1;
  if (start === rest.length) {
    start = rest.length - maxMessages;
    while (start > 0 && rest[start]?.role === 'tool') start -= 1;
  }
  return [...system, ...rest.slice(start)];
};
harden(keepLastMessages);
