/**
 * The agent's memory of the conversation: finished turns kept word for
 * word, older ones folded into a digest, and the turn in progress. Plain
 * data, so it can be stored in the guest's own store as it is.
 */
import type { ChatMessage } from '../../providers/types.js';

export interface Turn {
  /** One line saying what started the turn, e.g. `#3 from HOST: "ping"`. */
  title: string;
  messages: ChatMessage[];
  /** Set on another sender's turn shown in the HOST's thread (./threads.ts): whose thread it is. */
  thread?: string;
  /**
   * Where its words stop being the HOST's (./word-labels.ts): from message
   * `from` on, they show `read`, the first text that did not come from the
   * HOST (a peer's message, a tool's result, an outcome, a labelled wake-up).
   */
  label?: { read: string; from: number };
}

/** A folded turn, or a run of folded turns that read the same. */
export interface DigestEntry {
  text: string;
  count: number;
  /** The label of the words it quotes when they did not come from the HOST (./word-labels.ts). */
  read?: string;
}

export interface Conversation {
  digest: DigestEntry[];
  /** Digest entries dropped from the middle to keep the digest within its share. */
  omitted: number;
  turns: Turn[];
}

export const emptyConversation = (): Conversation => ({ digest: [], omitted: 0, turns: [] });
harden(emptyConversation);

/** Empties a conversation that others hold a reference to (forget()). */
export const emptyConversationInPlace = (conversation: Conversation): void => {
  conversation.digest.length = 0;
  conversation.turns.length = 0;
  conversation.omitted = 0;
};
harden(emptyConversationInPlace);

export const startTurn = (conversation: Conversation, title: string, content: string): Turn => {
  const turn: Turn = { title, messages: [{ role: 'user', content }] };
  conversation.turns.push(turn);
  return turn;
};
harden(startTurn);
