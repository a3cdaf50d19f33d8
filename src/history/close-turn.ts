/**
 * Closes a turn in the history with one line saying how it ended, so the
 * next notice starts a user message of its own instead of being merged
 * with a notice that was already dealt with.
 */
import type { Turn } from './conversation.js';

export const closeTurn = (turn: Turn, line: string): void => {
  turn.messages.push({ role: 'assistant', content: line });
};
harden(closeTurn);
