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
import type { DecodedCall } from '../encoding/decode-call.js';
import { BUILTIN_NAMES } from '../agent-tools/builtin-schemas.js';

/** What a built-in op's result holds that did not come from the HOST. */
const UNTRUSTED_OPS: Readonly<Record<string, string>> = harden({
  lookup: 'a value from the directory',
  inspectCapability: "a capability's own help",
  listMessages: "others' messages in the inbox",
  messageHistory: "a message's history",
  recall: 'the kept history',
});

/** What the call's result brings into the turn that did not come from the HOST, if anything. */
export const untrustedRead = ({ call, grouped }: DecodedCall): string | undefined => {
  if (!BUILTIN_NAMES.has(call.name)) return `the result of the tool ${call.name}`;
  return grouped === undefined ? undefined : UNTRUSTED_OPS[grouped.op];
};
harden(untrustedRead);

/** Whom a call acts toward: a recipient named by a pet name, or the sender of a message. */
export type Effect =
  | { kind: 'to'; name: string; what: string }
  | { kind: 'message'; number: bigint; what: string }
  | { kind: 'adopt'; number: bigint }
  | { kind: 'write' };

const WRITES = new Set(['store', 'remove', 'move', 'copy', 'makeDirectory']);

/** The side effect of a call toward someone (or on the pet names), if it has one. */
export const effectOf = ({ call, values, grouped }: DecodedCall): Effect | undefined => {
  const number = values.messageNumber as bigint;
  if (grouped === undefined) {
    if (call.name === 'send')
      return { kind: 'to', name: String(values.recipient), what: 'sends a message' };
    if (call.name === 'reply') return { kind: 'message', number, what: 'replies' };
    return undefined;
  }
  const { group, op } = grouped;
  if (group === 'names') return WRITES.has(op) ? { kind: 'write' } : undefined;
  switch (op) {
    case 'request':
      return { kind: 'to', name: String(values.recipient), what: 'makes a request' };
    case 'resolve':
    case 'reject':
      return { kind: 'message', number, what: 'answers a request' };
    case 'adopt':
    case 'adoptTool':
      return { kind: 'adopt', number };
    default:
      return undefined;
  }
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
