/**
 * What one turn has read, or shows, that did not come from the HOST
 * (behaviour 9.10, 9.11): a peer's turn starts with the peer's message read
 * (a sender the HOST trusts, LAL_TRUSTED_SENDERS, speaks with the HOST's
 * voice: its message is not counted); any turn notes each call whose result
 * brings in others' content (./side-effects.ts `untrustedRead`), each
 * outcome that arrives, and a labelled opening (an outcome turn, a wake-up
 * made by a turn that had read such content). Only the first is kept: it is
 * what the HOST's approval request names. Given the turn's words, it labels
 * them where that content came in, and a turn whose request shows labelled
 * words of earlier turns (the digest, the kept turns) reads as having read
 * them (../history/word-labels.ts).
 */
import type { Origin } from '../mail/origin.js';
import type { Turn } from '../history/conversation.js';
import { labelTurn, latestReplyAt } from '../history/word-labels.js';

/** Where noted content came into the turn: its opening, the latest call's result, or a notice about to be shown. */
type CameIn = 'opening' | 'call' | 'notice';

export interface TurnTaint {
  /** Whether the turn serves someone other than the HOST and those it trusts (its message is untrusted content). */
  readonly peerTurn: boolean;
  /** The first untrusted content the turn read or its request shows, or undefined while there is none. */
  read(): string | undefined;
  /** Notes untrusted content the turn has just read (a call's result when not said). */
  note(what: string, cameIn?: CameIn): void;
}

/** The turn's words, to label, and the label its request shows of earlier turns. */
export interface TurnWords {
  turn: Turn;
  shown: () => string | undefined;
}

export const makeTurnTaint = (
  origin: Origin | undefined,
  hostName: string,
  trusts: (sender: string) => boolean,
  words?: TurnWords,
): TurnTaint => {
  const peerTurn = origin !== undefined && origin.sender !== hostName && !trusts(origin.sender);
  let first: string | undefined;
  const note = (what: string, cameIn: CameIn = 'call') => {
    first ??= what;
    if (words === undefined) return;
    const { turn } = words;
    const at =
      cameIn === 'opening' ? 0 : cameIn === 'call' ? latestReplyAt(turn) : turn.messages.length;
    labelTurn(turn, what, at);
  };
  if (peerTurn) note(`message #${origin.number} from ${origin.sender}`, 'opening');
  return {
    peerTurn,
    read: () => first ?? words?.shown(),
    note,
  };
};
harden(makeTurnTaint);
