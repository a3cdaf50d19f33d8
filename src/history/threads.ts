/**
 * Each correspondent's thread (docs/behaviour.md 9.1). A turn that serves a
 * sender other than the HOST is built from that sender's thread alone: what
 * it said and what the agent did for it (its messages, the outcomes and
 * wake-ups that serve it), never what the HOST or another sender said. The
 * HOST owns the agent, so the HOST's thread (the memory's `conversation`)
 * holds every turn: its own word for word, and each other sender's, once
 * finished, as one line of what happened (who, when, what the agent did),
 * never their words; those are in the searchable history, which the
 * HOST's recall searches whole, labelled. Each thread folds, trims and keeps its
 * digest on its own, so each keeps its own prompt-cache prefix: a request
 * is the previous one of the same thread plus what was appended.
 */
import type { Conversation, Turn } from './conversation.js';
import { emptyConversation, emptyConversationInPlace } from './conversation.js';
import { whatHappenedFor } from './word-labels.js';

/** The thread of one sender other than the HOST, by the name it is shown by. */
export interface SenderThread {
  sender: string;
  conversation: Conversation;
}

/** Threads kept besides the HOST's: the least recently served goes first (its turns stay in the HOST's thread and in the searchable history). */
export const THREADS_KEPT = 64;
harden(THREADS_KEPT);

/**
 * The sender whose thread a turn belongs to: undefined for the HOST's own
 * turns and for the agent's own work that serves no sender (both the HOST's).
 */
export const threadSender = (
  origin: { sender: string } | undefined,
  hostName: string,
): string | undefined =>
  origin === undefined || origin.sender === hostName ? undefined : origin.sender;
harden(threadSender);

/** The sender's thread, made when it has none; the most recently used is kept last. */
export const threadOf = (threads: SenderThread[], sender: string): Conversation => {
  const at = threads.findIndex(thread => thread.sender === sender);
  const thread = at < 0 ? { sender, conversation: emptyConversation() } : threads[at]!;
  if (at >= 0) threads.splice(at, 1);
  threads.push(thread);
  if (threads.length > THREADS_KEPT) threads.splice(0, threads.length - THREADS_KEPT);
  return thread.conversation;
};
harden(threadOf);

/**
 * A finished turn of another sender's thread is shown in the HOST's as what
 * happened (who, when, what the agent did for them), never their words
 * (./word-labels.ts): the HOST's requests grow by a line per other turn, fold
 * no more often than the HOST's alone, and show nothing the HOST did not say.
 */
export const showToHost = (
  host: Conversation,
  turn: Turn,
  sender: string,
  number: bigint | undefined,
  at: number,
): void => {
  const line = whatHappenedFor(turn, sender, number, at);
  host.turns.push({ title: line, thread: sender, messages: [{ role: 'user', content: line }] });
};
harden(showToHost);

/** Empties every sender's thread in place (forget()). */
export const emptyThreadsInPlace = (threads: SenderThread[]): void => {
  for (const thread of threads) emptyConversationInPlace(thread.conversation);
  threads.length = 0;
};
harden(emptyThreadsInPlace);

// A title or digest line starts `#12 from bob: "…"` for a message's turn.
const TITLE = /^#\d+ from ([^:]+): /;

const senderOfLine = (line: string, hostName: string): string | undefined => {
  const found = TITLE.exec(line);
  const sender = found?.[1];
  return sender === undefined || sender === hostName ? undefined : sender;
};

/**
 * The threads of a conversation kept by a release before threads (memory
 * version 6 or older, shared by all senders): every digest line and turn
 * whose title names a sender other than the HOST is copied into that
 * sender's thread, oldest first. The conversation itself stays the HOST's
 * thread, whole: nothing is lost.
 */
export const splitBySender = (conversation: Conversation, hostName: string): SenderThread[] => {
  const threads: SenderThread[] = [];
  for (const entry of conversation.digest) {
    const sender = senderOfLine(entry.text, hostName);
    if (sender !== undefined) threadOf(threads, sender).digest.push({ ...entry });
  }
  for (const turn of conversation.turns) {
    const sender = senderOfLine(turn.title, hostName);
    if (sender !== undefined)
      threadOf(threads, sender).turns.push({
        title: turn.title,
        messages: turn.messages.map(message => ({ ...message })),
      });
  }
  return threads;
};
harden(splitBySender);

const isConversation = (value: unknown): value is Conversation => {
  if (value === null || typeof value !== 'object') return false;
  const record = value as Record<string, unknown>;
  return (
    Array.isArray(record.digest) &&
    Array.isArray(record.turns) &&
    typeof record.omitted === 'number'
  );
};

/** The stored threads that read (memory version 7); a thread that does not read is left out. */
export const readThreads = (value: unknown): { threads: SenderThread[]; lost: number } => {
  if (!Array.isArray(value)) return { threads: [], lost: 0 };
  const threads = value.filter(
    (entry): entry is SenderThread =>
      entry !== null &&
      typeof entry === 'object' &&
      typeof (entry as Record<string, unknown>).sender === 'string' &&
      isConversation((entry as Record<string, unknown>).conversation),
  );
  return { threads: threads.slice(-THREADS_KEPT), lost: value.length - threads.length };
};
harden(readThreads);
