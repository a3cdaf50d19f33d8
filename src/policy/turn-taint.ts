/**
 * What one turn has read that did not come from the HOST (behaviour 9.10):
 * a peer's turn starts with the peer's message read (a sender the HOST
 * trusts, LAL_TRUSTED_SENDERS, speaks with the HOST's voice: its message is
 * not counted); any turn notes each
 * call whose result brings in others' content (./side-effects.ts
 * `untrustedRead`) and each outcome that arrives. Only the first is kept:
 * it is what the HOST's approval request names.
 */
import type { Origin } from '../mail/origin.js';

export interface TurnTaint {
  /** Whether the turn serves someone other than the HOST and those it trusts (its message is untrusted content). */
  readonly peerTurn: boolean;
  /** The first untrusted content the turn read, or undefined while it has read none. */
  read(): string | undefined;
  /** Notes untrusted content the turn has just read. */
  note(what: string): void;
}

export const makeTurnTaint = (
  origin: Origin | undefined,
  hostName: string,
  trusts: (sender: string) => boolean,
): TurnTaint => {
  const peerTurn = origin !== undefined && origin.sender !== hostName && !trusts(origin.sender);
  let first = peerTurn ? `message #${origin.number} from ${origin.sender}` : undefined;
  return {
    peerTurn,
    read: () => first,
    note(what) {
      first ??= what;
    },
  };
};
harden(makeTurnTaint);
