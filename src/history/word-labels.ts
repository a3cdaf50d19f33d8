/**
 * Words keep their label (docs/behaviour.md 9.11). A turn's words are the
 * HOST's until it reads something that did not come from the HOST (a
 * peer's message, a tool's result, an outcome, a wake-up made by a turn
 * that had read such text); from then on they carry that label
 * (`Turn.label`), and so do the digest lines that quote them. A turn is
 * judged by what its request shows (`shownLabel`), not only by what it read
 * itself. When a turn of the HOST's thread ends, its labelled words are
 * kept out of later turns: what remains is what happened, without the
 * words (`keepOnlyHostsWords`); the searchable history keeps them, with
 * their label, for when the HOST asks to see them (`mail recall`). Another
 * party's turn is shown in the HOST's thread the same way: who, when, what
 * the agent did for them (`whatHappenedFor`).
 */
import type { ChatMessage } from '../../providers/types.js';
import type { Conversation, Turn } from './conversation.js';
import { describeActions } from './digest.js';

/** How a kept turn's title says whose words it held (`/memory` in the simulator shows the titles). */
export const WORDS_FROM = 'held words from';
harden(WORDS_FROM);

/** Labels the turn's words from message `from` on, unless they already carry a label. */
export const labelTurn = (turn: Turn, read: string, from: number): void => {
  turn.label ??= { read, from: Math.max(0, Math.min(from, turn.messages.length)) };
};
harden(labelTurn);

/** Where the words brought by the latest tool call start: at the reply that made it. */
export const latestReplyAt = (turn: Turn): number => {
  for (let index = turn.messages.length - 1; index >= 0; index -= 1)
    if (turn.messages[index]!.role === 'assistant') return index;
  return turn.messages.length;
};
harden(latestReplyAt);

/**
 * The first label the request shows besides the turn in progress: a digest
 * line or a kept turn whose words did not come from the HOST; undefined
 * when everything it shows is the HOST's.
 */
export const shownLabel = (conversation: Conversation, current: Turn): string | undefined => {
  const line = conversation.digest.find(entry => entry.read !== undefined);
  if (line !== undefined) return `${line.read} (an earlier exchange the digest quotes)`;
  const turn = conversation.turns.find(one => one !== current && one.label !== undefined);
  return turn === undefined ? undefined : `${turn.label!.read} (an earlier turn it shows)`;
};
harden(shownLabel);

const deedsOf = (messages: readonly ChatMessage[]): string => {
  const deeds = describeActions(messages, 0);
  return deeds.length === 0 ? 'nothing' : deeds.join('; ');
};

/**
 * Keeps out of later turns the words of a finished turn that did not come
 * from the HOST: from its label on, its messages become one line of what
 * the agent did (the tools it used, whom it answered or wrote to), and the
 * turn carries no label any more. A turn whose opening was labelled keeps
 * only what kind of turn it was.
 */
export const keepOnlyHostsWords = (turn: Turn): void => {
  const { label } = turn;
  if (label === undefined) return;
  delete turn.label;
  // Nothing said after the label (a turn that ended as it read): nothing to keep out.
  if (label.from >= turn.messages.length) return;
  const kept = turn.messages.slice(0, label.from);
  const line = `[Then, after reading ${label.read}, which did not come from the HOST, the agent did: ${deedsOf(turn.messages.slice(label.from))}. Those words are kept out of later turns; mail recall shows them, labelled.]`;
  if (label.from === 0) {
    // Its title quotes the labelled opening (a wake-up's note, an outcome): only its kind stays, and whose words it held.
    turn.title = `${turn.title.split(/[:"]/)[0]!} (${WORDS_FROM} ${label.read}, not from the HOST)`;
    turn.messages = [{ role: 'user', content: `${turn.title}: ${line}` }];
  } else {
    turn.messages = [...kept, { role: 'assistant', content: line }];
  }
};
harden(keepOnlyHostsWords);

/**
 * The line the HOST's thread keeps of another party's finished turn: who,
 * when, and what the agent did for them, never their words (their words
 * are in that party's thread and in the searchable history).
 */
export const whatHappenedFor = (
  turn: Turn,
  party: string,
  number: bigint | undefined,
  at: number,
): string => {
  const about = number === undefined ? `${party}'s` : `${party}'s message #${number}`;
  const kind = number === undefined ? ` (${turn.title.split(/[:"]/)[0]!})` : '';
  return `[${new Date(at).toISOString()}: a turn for ${about}${kind}, in their own thread; the agent did: ${deedsOf(turn.messages)}. Their words are not shown here; mail recall shows them, labelled.]`;
};
harden(whatHappenedFor);

/** The label of what a store from before labels kept (memory version 9 or older): who said it is not known. */
export const BEFORE_LABELS = 'what an older release kept, before words were labelled';
harden(BEFORE_LABELS);

const QUOTED = /"(?:[^"\\]|\\.)*"/g;

/** A digest line without the words it quoted, but the HOST's own message (`fromHost` reads its title). */
const wordlessLine = (text: string, fromHost: RegExp): string => {
  const arrow = text.indexOf(' → ');
  const head = arrow < 0 ? text : text.slice(0, arrow);
  const tail = arrow < 0 ? '' : text.slice(arrow);
  return (fromHost.test(head) ? head : head.replace(QUOTED, '…')) + tail.replace(QUOTED, '…');
};

/**
 * The HOST's thread as a store from before labels kept it, made to show
 * only the HOST's words (conservatively: whatever is not known to be the
 * HOST's is taken as not): the digest's lines keep what they say was done
 * and the HOST's own messages, and each kept turn what the agent did after
 * the HOST's message. The words stay in the searchable history.
 */
export const keepOnlyHostsWordsOfOldStore = (
  conversation: Conversation,
  hostName: string,
): Conversation => {
  const fromHost = new RegExp(`^#\\d+ from ${hostName.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: `);
  const turns = conversation.turns.map(old => {
    const turn: Turn = { ...old, messages: [...old.messages] };
    labelTurn(turn, BEFORE_LABELS, old.thread === undefined && fromHost.test(old.title) ? 1 : 0);
    keepOnlyHostsWords(turn);
    return turn;
  });
  const digest = conversation.digest.map(entry => ({
    ...entry,
    text: wordlessLine(entry.text, fromHost),
  }));
  return { ...conversation, digest, turns };
};
harden(keepOnlyHostsWordsOfOldStore);
