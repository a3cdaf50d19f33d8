/**
 * The deterministic digest of folded turns. A model-written summary would
 * cost a model call per fold and is unreliable with small local models; a
 * digest line per turn (what came in, what the agent did) is free, exact,
 * and keeps facts word for word. Runs of turns that read the same collapse
 * into one line with a count, and when the digest outgrows its share its
 * middle goes, keeping the first entries (where a conversation's setup
 * lives) and the latest.
 */
import type { ChatMessage } from '../../providers/types.js';
import type { Conversation, DigestEntry, Turn } from './conversation.js';
import { decodeCall } from '../agent-tools/decode-call.js';
import type { Args } from '../agent-tools/read-args.js';
import { cutWhole } from '../log/cut-text.js';

const QUOTE_CHARS = 160;

const quote = (text: string, maxChars: number): string => {
  const flat = text.replace(/\s+/g, ' ').trim();
  return JSON.stringify(cutWhole(flat, maxChars));
};

const messageText = (args: Args | undefined): string =>
  Array.isArray(args?.strings) ? args.strings.map(String).join(' ') : '';

// A recipient named as a pet name or path is a fact of what was done; anything else could be words.
const NAME_LIKE = /^[\w@.-]{1,64}(\/[\w@.-]{1,64}){0,3}$/;

/**
 * What the agent did in a turn, one entry per reply, message or plain answer
 * (each quoted up to `quoteChars`), led by the tools it used; the digest
 * quotes briefly, the searchable history (src/recall/) at length. With
 * `quoteChars` 0, what was done without any words (./word-labels.ts):
 * a recipient only when it reads as a name.
 */
export const describeActions = (
  messages: readonly ChatMessage[],
  quoteChars: number = QUOTE_CHARS,
): string[] => {
  const actions: string[] = [];
  const used = new Set<string>();
  const quoted = (text: string) => (quoteChars === 0 ? '' : ` ${quote(text, quoteChars)}`);
  for (const message of messages) {
    if (message.role !== 'assistant') continue;
    for (const call of message.toolCalls ?? []) {
      // Read as the call was judged and run (broken arguments: it failed and the model was told).
      const decoded = decodeCall(call, text => text);
      const args = decoded.ok ? decoded.args : undefined;
      if (call.name === 'reply') {
        actions.push(`replied${quoted(messageText(args))}`);
      } else if (call.name === 'send') {
        const recipient = String(args?.recipient ?? '?');
        const named = quoteChars > 0 || NAME_LIKE.test(recipient) ? recipient : 'someone';
        actions.push(`sent ${named}${quoted(messageText(args))}`);
      } else {
        // A grouped tool's op says what was done (`names` with op `list`: list).
        used.add(decoded.names[0] ?? call.name);
      }
    }
    if (quoteChars > 0 && message.content.trim() !== '' && (message.toolCalls ?? []).length === 0) {
      actions.push(`said ${quote(message.content, quoteChars)}`);
    }
  }
  if (used.size > 0) actions.unshift(`used ${[...used].join(', ')}`);
  return actions;
};
harden(describeActions);

export const digestTurn = (turn: Turn): string => {
  const actions = describeActions(turn.messages);
  return actions.length > 0 ? `${turn.title} → ${actions.join('; ')}` : turn.title;
};
harden(digestTurn);

/** Folds the oldest finished turn into the digest. */
export const foldOldestTurn = (conversation: Conversation): void => {
  const turn = conversation.turns.shift();
  if (turn === undefined) return;
  const text = digestTurn(turn);
  const read = turn.label?.read;
  const last: DigestEntry | undefined = conversation.digest[conversation.digest.length - 1];
  // Titles carry message numbers; two turns read the same when all else is equal, their label too.
  const withoutNumbers = (line: string) => line.replace(/#\d+/g, '#');
  if (
    last !== undefined &&
    last.read === read &&
    withoutNumbers(last.text) === withoutNumbers(text)
  ) {
    last.count += 1;
  } else {
    // The line quotes the turn's words: it keeps their label (./word-labels.ts).
    conversation.digest.push({ text, count: 1, ...(read === undefined ? {} : { read }) });
  }
};
harden(foldOldestTurn);

/**
 * Once the digest is over `maxChars`, drops entries from its middle until it
 * fits in `toChars` (at most `maxChars`). Dropping from the middle rewrites
 * every line after the first ones, so a caller that keeps a prompt-cache
 * prefix drops a block at once (`toChars` below `maxChars`): the next folds
 * then only append to the digest.
 */
export const trimDigest = (
  conversation: Conversation,
  maxChars: number,
  toChars: number = maxChars,
): void => {
  const size = () => conversation.digest.reduce((sum, entry) => sum + entry.text.length + 12, 0);
  const keepFirst = 3;
  if (size() <= maxChars) return;
  while (size() > Math.min(toChars, maxChars) && conversation.digest.length > keepFirst + 1) {
    conversation.digest.splice(keepFirst, 1);
    conversation.omitted += 1;
  }
};
harden(trimDigest);

export const renderDigest = (conversation: Conversation): string => {
  if (conversation.digest.length === 0) return '';
  const lines = conversation.digest.map(entry =>
    entry.count > 1 ? `- (${entry.count} times) ${entry.text}` : `- ${entry.text}`,
  );
  if (conversation.omitted > 0) {
    lines.splice(
      Math.min(3, lines.length),
      0,
      `- (${conversation.omitted} more earlier exchanges left out)`,
    );
  }
  return `[Digest of the earlier conversation, oldest first; not a new message]\n${lines.join('\n')}`;
};
harden(renderDigest);
