/**
 * An outcome kept in the conversation without a turn of its own: no model call is made for it,
 * and the next turn reads it in its history. For what the one who would be told already knows
 * (the HOST who stopped a call with Ctrl-C: docs/behaviour.md 10.2; issue 45). Returned closed,
 * to be filed as a finished turn is (the searchable history, docs/behaviour.md 3.11).
 */
import { closeTurn } from './close-turn.js';
import { startTurn, type Conversation, type Turn } from './conversation.js';

/** The line that closes it: the agent did nothing more about it, and nobody waits for an answer. */
const KEPT_OUTCOME_CLOSING = '(Noted, no answer needed: the one who stopped it knows.)';

export const keepOutcome = (conversation: Conversation, title: string, text: string): Turn => {
  const turn = startTurn(conversation, title, text);
  closeTurn(turn, KEPT_OUTCOME_CLOSING);
  return turn;
};
harden(keepOutcome);
