/**
 * What the agent has asked of someone and is still waiting for — requests,
 * approvals (both requests to the HOST), host-approved evaluations and
 * eval-proposals — kept in the agent's store, so that the answer still
 * reaches the conversation it belongs to when it comes after a restart.
 *
 * While the agent runs, each tracker follows the daemon's promise itself.
 * After a restart that promise is gone, but the agent's own copy of what it
 * sent is still in its inbox (kept undismissed while it waits) and carries
 * `settled`, which the daemon settles when the other side answers
 * (docs/daemon-api.md, "Messages"): `resume` finds each stored ask's copy and
 * hands its settlement to the tracker that made it. A copy is dismissed once
 * its ask is settled.
 */
import { E } from '@endo/far';
import type { PowersRef } from '../guest-powers.js';
import type { Log } from '../log.js';
import type { Origin } from '../notices.js';

export type AskKind = 'request' | 'approval' | 'evaluation' | 'proposal';

/** As stored (JSON): the origin's number is a string. */
export interface StoredAsk {
  id: string;
  kind: AskKind;
  /** Whom it was sent to (a pet name). */
  recipient: string;
  /** The text the own copy carries: a request's description, a proposal's source. */
  description: string;
  origin?: { number: string; sender: string };
  /** What the tracker needs to finish it after a restart (names, code, the call). */
  detail: Record<string, unknown>;
}

export interface AskStore {
  /** The next number for an id (shared by every kind, kept over restarts). */
  next: number;
  pending: StoredAsk[];
}

export const emptyAskStore = (): AskStore => ({ next: 1, pending: [] });

const isRecord = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

const isStoredAsk = (value: unknown): value is StoredAsk => {
  if (!isRecord(value)) return false;
  const origin = value.origin;
  return (
    typeof value.id === 'string' &&
    ['request', 'approval', 'evaluation', 'proposal'].includes(value.kind as string) &&
    typeof value.recipient === 'string' &&
    typeof value.description === 'string' &&
    isRecord(value.detail) &&
    (origin === undefined ||
      (isRecord(origin) &&
        typeof origin.number === 'string' &&
        /^\d+$/.test(origin.number) &&
        typeof origin.sender === 'string'))
  );
};

/** Reads a stored ask store; what does not read is left out (`lost` counts it). */
export const readAskStore = (value: unknown): { store: AskStore; lost: number } => {
  if (!isRecord(value) || !Array.isArray(value.pending))
    return { store: emptyAskStore(), lost: value === undefined ? 0 : 1 };
  const pending = value.pending.filter(isStoredAsk);
  const next =
    typeof value.next === 'number' && Number.isSafeInteger(value.next) && value.next > 0
      ? value.next
      : pending.length + 1;
  return { store: { next, pending }, lost: value.pending.length - pending.length };
};

export const storedOrigin = (origin: Origin | undefined): StoredAsk['origin'] =>
  origin === undefined ? undefined : { number: String(origin.number), sender: origin.sender };

export const originOfAsk = (ask: StoredAsk): Origin | undefined =>
  ask.origin === undefined
    ? undefined
    : { number: BigInt(ask.origin.number), sender: ask.origin.sender };

/** How an ask from before a restart ended: the other side answered, refused, or its copy was gone. */
export type Settlement = 'fulfilled' | 'rejected' | 'lost';

/**
 * Whether a rejection only says the connection to the daemon went away (a
 * restart under way): that is no answer, and the ask stays stored for the
 * next run to follow.
 */
export const isDisconnection = (error: unknown): boolean =>
  /\b(disconnected|connection (closed|lost|reset)|captp)\b/i.test(
    error instanceof Error ? error.message : String(error),
  );

/** The agent's own copy of something it sent, as the mail gives it. */
export interface OwnCopy {
  type?: unknown;
  number?: unknown;
  description?: unknown;
  source?: unknown;
  resultName?: unknown;
  settled?: unknown;
}

export interface PendingAsks {
  /**
   * Runs `step` once the store has been written after what was just done
   * (at once when nothing writes it): an own copy is dismissed only once
   * the outcome's notice is stored, so a restart in between loses nothing.
   */
  afterSave(step: () => void): void;
  /** A new id made from `prefix` (r, a, p), for an ask about to be added. */
  reserve(prefix: string): string;
  /** Records a new ask. */
  add(ask: StoredAsk): void;
  /** The ask is answered: forgotten, and its own copy dismissed. */
  settle(id: string): void;
  /** Whether the own copy belongs to a pending ask (then it stays in the inbox until that is settled). */
  claimOwnCopy(message: OwnCopy): boolean;
  /**
   * At start: follows every ask stored by the previous run through its own
   * copy in the inbox; `finish` is called once each is settled (or, with
   * 'lost', when its copy is no longer there).
   */
  resume(finish: (ask: StoredAsk, settlement: Settlement) => void | Promise<void>): Promise<void>;
  /** The asks still pending, oldest first. */
  pending(): readonly StoredAsk[];
  /** Whether an ask made while serving this message is still pending (the message must stay answerable). */
  hasPendingFor(number: bigint): boolean;
  /**
   * The agent is stopping: an answer that arrives from now on is the next
   * run's to follow (it finds the ask in the store), so nothing is settled
   * or dismissed here any more.
   */
  stop(): void;
  stopped(): boolean;
}

const copyMatches = (ask: StoredAsk, message: OwnCopy): boolean => {
  if (ask.kind === 'proposal') {
    return (
      message.type === 'eval-proposal-proposer' &&
      message.source === ask.description &&
      (message.resultName === undefined || message.resultName === ask.detail.resultName)
    );
  }
  return message.type === 'request' && message.description === ask.description;
};

export const makePendingAsks = (options: {
  store: AskStore;
  powers: PowersRef;
  log: Log;
  /** Writes the agent's store (memory/agent-memory.ts). */
  save?: () => Promise<void>;
}): PendingAsks => {
  const { store, powers, log } = options;
  // A microtask later, so the notice pushed right after a settlement is in the snapshot.
  const afterSave = (step: () => void) => {
    void Promise.resolve()
      .then(() => options.save?.())
      .then(step, step);
  };
  // The own copy of each ask, once it has come by (numbers are not stored: resume finds them again).
  const copies = new Map<string, bigint>();
  const settledIds = new Set<string>();
  let stopped = false;

  const dismiss = (number: bigint) =>
    Promise.resolve(E(powers).dismiss(number)).catch((error: unknown) =>
      log(`could not dismiss own copy #${number}: ${String(error)}`),
    );

  const claimed = () => new Set(copies.values());

  const claimOwnCopy = (message: OwnCopy): boolean => {
    if (typeof message.number !== 'bigint') return false;
    const number = message.number;
    if (claimed().has(number)) return true;
    // Proposer copies are the proposal tracker's while it runs; resume finds them after a restart.
    if (message.type !== 'request') return false;
    const ask = store.pending.find(entry => !copies.has(entry.id) && copyMatches(entry, message));
    if (ask === undefined) return false;
    copies.set(ask.id, number);
    return true;
  };

  return {
    reserve(prefix) {
      const id = `${prefix}${store.next}`;
      store.next += 1;
      return id;
    },
    add(ask) {
      store.pending.push(ask);
    },
    settle(id) {
      if (stopped) return;
      const index = store.pending.findIndex(entry => entry.id === id);
      if (index !== -1) store.pending.splice(index, 1);
      settledIds.add(id);
      const number = copies.get(id);
      copies.delete(id);
      if (number !== undefined) afterSave(() => void dismiss(number));
    },
    afterSave,
    claimOwnCopy,
    async resume(finish) {
      const earlier = [...store.pending];
      if (earlier.length === 0) return;
      let inbox: OwnCopy[] = [];
      try {
        inbox = (await E(powers).listMessages()) as OwnCopy[];
      } catch (error) {
        log(
          `could not read the inbox to follow ${earlier.length} pending ask(s): ${String(error)}`,
        );
        return;
      }
      for (const ask of earlier) {
        const taken = new Set(
          [...copies].filter(([id]) => id !== ask.id).map(([, number]) => number),
        );
        const copy = inbox.find(
          message =>
            typeof message.number === 'bigint' &&
            !taken.has(message.number) &&
            copyMatches(ask, message),
        );
        console.error(
          'DEBUG resume',
          JSON.stringify(ask),
          inbox.map(m => [m.type, String(m.number), m.source, m.resultName]),
        );
        if (copy === undefined) {
          void finish(ask, 'lost');
          continue;
        }
        copies.set(ask.id, copy.number as bigint);
        // Not awaited: the other side may answer in minutes or days.
        void Promise.resolve(copy.settled).then(
          async (settlement: unknown) => {
            if (stopped || settledIds.has(ask.id)) return;
            await finish(ask, settlement === 'fulfilled' ? 'fulfilled' : 'rejected');
          },
          async () => {
            if (!stopped && !settledIds.has(ask.id)) await finish(ask, 'rejected');
          },
        );
      }
    },
    pending: () => store.pending,
    hasPendingFor: number => store.pending.some(ask => ask.origin?.number === String(number)),
    stop() {
      stopped = true;
    },
    stopped: () => stopped,
  };
};
