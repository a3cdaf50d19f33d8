/**
 * The taint rule's decisions (behaviour 9.10), after CaMeL: the HOST's
 * request decides what may happen, and content that did not come from the
 * HOST may fill in values but never chooses a side effect. So a turn keeps
 * whether it has read such content (a peer's message, any FaeTool's or MCP
 * server's result, a value looked up, the inbox, the kept history, an
 * outcome that arrived), and once it has, a call that sends, replies,
 * requests, adopts or answers toward anyone other than the turn's own
 * sender and the HOST, and any call LAL_TOOLS_APPROVE gates (even for a
 * trusted sender), waits for the HOST's approval of that exact call. A
 * peer's turn (always tainted: the peer wrote its message) adopts and
 * writes among its own names only (src/parties/), so those go ahead. A turn
 * that read nothing untrusted is never slowed.
 */
import { makeError, q, X } from '@endo/errors';
import type { DecodedCall } from '../agent-tools/decode-call.js';
import { opRecord } from '../agent-tools/builtin-schemas.js';

/** The record of the call's op or tool (src/agent-tools/builtin-schemas.ts); undefined for a FaeTool. */
const recordOf = ({ call, grouped }: DecodedCall) =>
  opRecord(grouped?.group ?? call.name, grouped?.op);

/** What the call's result brings into the turn that did not come from the HOST, if anything (its record says). */
export const untrustedRead = (decoded: DecodedCall): string | undefined => {
  const record = recordOf(decoded);
  if (record === undefined) return `the result of the tool ${decoded.call.name}`;
  return record.brings === false ? undefined : record.brings;
};
harden(untrustedRead);

/** Whom a call acts toward: a recipient named by a pet name, or the sender of a message. */
export type Effect =
  | { kind: 'to'; name: string; what: string }
  | { kind: 'message'; number: bigint; what: string }
  | { kind: 'adopt'; number: bigint }
  | { kind: 'write' };

/** The side effect of a call toward someone (or on the pet names), as its record states it; a FaeTool's is none. */
export const effectOf = (decoded: DecodedCall): Effect | undefined => {
  const effect = recordOf(decoded)?.effect ?? 'none';
  const { values } = decoded;
  if (effect === 'none') return undefined;
  if (effect === 'write') return { kind: 'write' };
  if (effect !== 'adopt' && effect.toward === 'recipient')
    return { kind: 'to', name: String(values.recipient), what: effect.what };
  // Invariant: every op whose effect is toward a message or an adoption reads its number (its record's `reads`).
  const number = values.messageNumber;
  if (typeof number !== 'bigint') throw makeError(X`${q(decoded.call.name)} has no message number`);
  return effect === 'adopt'
    ? { kind: 'adopt', number }
    : { kind: 'message', number, what: effect.what };
};
harden(effectOf);

/** Who a call's effect reaches, as the boundary resolved it by identity. */
/** `nobody`: the recipient or message does not exist, so the call can only fail. */
export type Party = 'sender' | 'host' | 'other' | 'nobody';

/**
 * Why the HOST must approve this call first, or undefined when it may run.
 * `read` is the untrusted content the turn read first (undefined: none).
 */
export const whyAskHost = (options: {
  read: string | undefined;
  peerTurn: boolean;
  /** LAL_TOOLS_APPROVE gates this call (whoever is served). */
  gated: boolean;
  effect: Effect | undefined;
  /** Whom the effect reaches (for `to`, `message` and `adopt`). */
  party: Party | undefined;
}): string | undefined => {
  const { read, peerTurn, gated, effect, party } = options;
  if (read === undefined || party === 'nobody') return undefined;
  const because = `this turn has read ${read}, which did not come from the HOST`;
  if (gated) return `${because}, and LAL_TOOLS_APPROVE gates this tool`;
  if (effect === undefined) return undefined;
  // A peer's turn writes and adopts among its own names, from its own messages (src/parties/): toward that peer.
  if (effect.kind === 'write') return undefined;
  if (effect.kind === 'adopt')
    return peerTurn || party === 'host'
      ? undefined
      : `${because}, and it adopts what someone else sent`;
  if (party === 'sender' || party === 'host') return undefined;
  return `${because}, and it ${effect.what} toward someone other than the sender served and the HOST`;
};
harden(whyAskHost);
