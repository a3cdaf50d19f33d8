/**
 * The two names of what waits for the person's answer: the number the
 * terminal shows (#15: the message in HOST's inbox) and the agent's own id
 * for it (a2 for a tool call's approval, p1 for code), which its words, its
 * help() (/status) and its notices use. /grant, /reject, /counter and
 * /dismiss take either; /inbox and /status show both.
 *
 * The id is read from the message where it carries it (an approval request
 * says "(approval a2)", a request to run code on the newest daemon
 * "(proposal p1; …)"); an eval-proposal (f0a46042a) carries only its code,
 * so it is paired with the agent's kept proposal of that code, oldest first.
 */
import { E } from '@endo/far';
import { MEMORY_PATH } from '../../src/daemon/own-names.js';
import { readCodeRequest } from '../../src/asks/host-approved-evaluation.js';
import { approvalIdOf, type HostInbox } from './host-inbox.js';
import type { HostPowers } from '../mail-host/index.js';

interface KeptPowers {
  has(...path: string[]): unknown;
  lookup(path: string | string[]): unknown;
}

/** What a command names: a message's number, or the agent's id for what waits. */
export type Reference = bigint | string;

/** An id as the agent writes them: a (approval) or p (proposal), then its number. */
export const AGENT_ID = /^[ap]\d+$/i;
harden(AGENT_ID);

/** The proposals the agent keeps as waiting (f0a46042a's tracker: the code is the description), oldest first. */
const keptProposals = async (guest: KeptPowers): Promise<{ id: string; source: string }[]> => {
  if (!(await E(guest).has(...MEMORY_PATH))) return [];
  try {
    const memory = JSON.parse(String(await E(guest).lookup([...MEMORY_PATH]))) as {
      asks?: { pending?: { id?: unknown; kind?: unknown; description?: unknown }[] };
    };
    return (memory.asks?.pending ?? []).flatMap(ask =>
      ask.kind === 'proposal' && typeof ask.id === 'string' && typeof ask.description === 'string'
        ? [{ id: ask.id, source: ask.description }]
        : [],
    );
  } catch {
    // A memory this simulator cannot read names no proposal: the numbers still work.
    return [];
  }
};

export const makeAgentIds = (options: {
  host: HostPowers;
  guest: KeptPowers;
  inbox: Pick<HostInbox, 'pendingKind'>;
}) => {
  const { host, guest, inbox } = options;

  /** Each message waiting for an answer whose agent's id is known: its number → that id. */
  const waiting = async (): Promise<Map<bigint, string>> => {
    const ids = new Map<bigint, string>();
    const proposals: { number: bigint; source: string }[] = [];
    for (const message of await E(host).listMessages()) {
      if (inbox.pendingKind(message.number) === undefined) continue;
      if (message.type === 'request') {
        const id =
          approvalIdOf(message.description) ?? readCodeRequest(message.description)?.proposalId;
        if (id !== undefined) ids.set(message.number, id);
      } else if (message.type === 'eval-proposal-reviewer')
        proposals.push({ number: message.number, source: message.source });
    }
    if (proposals.length === 0) return ids;
    const kept = await keptProposals(guest);
    for (const { number, source } of proposals) {
      const at = kept.findIndex(each => each.source === source);
      if (at < 0) continue;
      ids.set(number, kept[at]!.id);
      kept.splice(at, 1);
    }
    return ids;
  };

  /** The message number a reference names; an id that names nothing waiting is said so. */
  const numberOf = async (reference: Reference): Promise<bigint> => {
    if (typeof reference === 'bigint') return reference;
    const id = reference.toLowerCase();
    const found = [...(await waiting())].filter(([, each]) => each === id).map(([n]) => n);
    if (found.length === 1) return found[0]!;
    throw Error(
      found.length === 0
        ? `${id} is not waiting for your answer; /inbox lists what waits, with its number and the agent's id`
        : `${id} names ${found.map(n => `#${n}`).join(' and ')}: answer by number`,
    );
  };

  return harden({ waiting, numberOf });
};
harden(makeAgentIds);
