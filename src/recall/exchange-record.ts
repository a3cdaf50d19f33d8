/**
 * One exchange of the searchable history: what came in (the notice the
 * model saw) and what the agent did (its replies and messages word for
 * word, the tools it used), with the message number, sender and time. The
 * digest folds turns into a line each and drops its middle; these records
 * keep every turn, cut only where one is very long.
 */
import type { Conversation, DigestEntry, Turn } from '../history/conversation.js';
import { describeActions } from '../history/digest.js';
import type { Origin } from '../mail/origin.js';
import { cutWhole } from '../log/cut-text.js';
import { redactStrings } from '../log/agent-output.js';

/** Short keys: a chunk holds many records, and every key is repeated in each. */
export interface ExchangeRecord {
  /** The message the turn was about (a mail turn, or the message an outcome or wake-up belongs to). */
  n?: number;
  /** Its sender, by pet name. */
  from?: string;
  /** When the turn ended (ms since the epoch); absent for turns from before the history was kept. */
  at?: number;
  /** What came in: the notice as the model saw it. */
  in: string;
  /** What the agent did. */
  out: string;
  /** The label its words carry, when some did not come from the sender (src/history/word-labels.ts). */
  read?: string;
  /** The channel whose turn it was (src/channels/): only the HOST's turns find it. */
  ch?: string;
}

// A message or answer longer than this is cut: the record stays well under a chunk.
const RECORD_TEXT_CHARS = 3_000;
// Replies and messages quoted in full up to this (the digest quotes 160 characters).
const QUOTE_CHARS = 2_000;

// Redacted first, then cut never through a token (docs/behaviour.md 9.5).
const redactThenCut = (text: string, redact: (text: string) => string): string =>
  cutWhole(redact(text), RECORD_TEXT_CHARS);

// A title or digest line starts `#12 from HOST: "…"` for a message's turn.
const TITLE = /^#(\d+) from ([^:]+): /;

const fromTitle = (title: string): Pick<ExchangeRecord, 'n' | 'from'> => {
  const found = TITLE.exec(title);
  return found === null ? {} : { n: Number(found[1]), from: found[2]! };
};

/** The record of a finished turn; `redact` hides secret values before anything is kept. */
export const recordOfTurn = (
  turn: Turn,
  origin: Origin | undefined,
  at: number | undefined,
  redact: (text: string) => string,
  channel?: string,
): ExchangeRecord => {
  const first = turn.messages[0];
  const notice = first?.role === 'user' ? first.content : turn.title;
  return {
    ...(origin === undefined
      ? fromTitle(turn.title)
      : { n: Number(origin.number), from: origin.sender }),
    ...(at === undefined ? {} : { at }),
    ...(turn.label === undefined ? {} : { read: turn.label.read }),
    ...(channel === undefined ? {} : { ch: channel }),
    in: redactThenCut(notice, redact),
    out: redactThenCut(
      describeActions(
        turn.messages.map(message => redactStrings(message, redact)),
        QUOTE_CHARS,
      ).join('; '),
      redact,
    ),
  };
};
harden(recordOfTurn);

const recordOfDigestEntry = (entry: DigestEntry): ExchangeRecord => {
  // `#3 from HOST: "ping" → replied "pong"`: what came in, then what the agent did.
  const arrow = entry.text.indexOf(' → ');
  const said = arrow < 0 ? entry.text : entry.text.slice(0, arrow);
  const did = arrow < 0 ? '' : entry.text.slice(arrow + 3);
  return {
    ...fromTitle(entry.text),
    in: entry.count > 1 ? `${said} (${entry.count} times)` : said,
    out: did,
  };
};

/**
 * The conversation a store of the previous format holds, as records: its
 * digest lines (already folded, so as the digest kept them) and its turns
 * (word for word), oldest first. Turns have no time: it was not kept.
 */
export const recordsOfConversation = (
  conversation: Conversation,
  redact: (text: string) => string,
): ExchangeRecord[] => [
  ...conversation.digest.map(recordOfDigestEntry),
  ...conversation.turns.map(turn => recordOfTurn(turn, undefined, undefined, redact)),
];
harden(recordsOfConversation);

const isOptionalNumber = (value: unknown) => value === undefined || typeof value === 'number';

export const isExchangeRecord = (value: unknown): value is ExchangeRecord => {
  if (value === null || typeof value !== 'object') return false;
  const record = value as Record<string, unknown>;
  return (
    typeof record.in === 'string' &&
    typeof record.out === 'string' &&
    isOptionalNumber(record.n) &&
    isOptionalNumber(record.at) &&
    (record.from === undefined || typeof record.from === 'string') &&
    (record.read === undefined || typeof record.read === 'string') &&
    (record.ch === undefined || typeof record.ch === 'string')
  );
};
harden(isExchangeRecord);
