/**
 * What the agent has asked of someone and is still waiting for — requests,
 * approvals (both requests to the HOST), host-approved evaluations and
 * eval-proposals: the one owner of every ask's state (./ask-life.ts), and
 * its mirror in the agent's store, so that the answer still reaches the
 * conversation it belongs to when it comes after a restart.
 *
 * While the agent runs, each tracker follows the daemon's promise itself
 * and reports what happened here (`answer`, `disconnected`, `told`), which
 * says what to do. After a restart that promise is gone, but the agent's
 * own copy of what it sent is still in its inbox (kept undismissed while it
 * waits) and carries `settled`, which the daemon settles when the other
 * side answers (docs/daemon-api.md, "Messages"): `resume` finds each stored
 * ask's copy and hands its settlement to the tracker that made it. A copy
 * is dismissed once its ask's outcome is told and stored.
 */
import { E } from '@endo/far';
import type { PowersRef } from '../daemon/guest-powers.js';
import type { Log } from '../log/log.js';
import type { Origin } from '../mail/origin.js';
import { isPending, nextAsk, type AskEffect, type AskEvent, type AskState } from './ask-life.js';
import { describeError } from '../../providers/describe-error.js';

type AskKind = 'request' | 'approval' | 'evaluation' | 'proposal';

/** The states an ask is stored in (those that are pending). */
type StoredState = Extract<AskState, 'made' | 'sent' | 'settled' | 'cancelled'>;

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
  /**
   * Where its life stood when stored (memory version 5; a version 4 ask has
   * none and was sent): `settled` means the yes came and the call or code
   * was running; `cancelled` that the agent's cancellation stopped that call.
   */
  state?: StoredState;
  /** Why the agent was cancelled, for a `cancelled` ask (the canceller's words, e.g. the simulator's Ctrl-C). */
  cancelReason?: string;
}

export interface AskStore {
  /** The next number for an id (shared by every kind, kept over restarts). */
  next: number;
  pending: StoredAsk[];
}

export const emptyAskStore = (): AskStore => ({ next: 1, pending: [] });
harden(emptyAskStore);

const isRecord = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

const STORED_STATES: readonly unknown[] = ['made', 'sent', 'settled', 'cancelled'];

const isStoredAsk = (value: unknown): value is StoredAsk => {
  if (!isRecord(value)) return false;
  const origin = value.origin;
  return (
    typeof value.id === 'string' &&
    ['request', 'approval', 'evaluation', 'proposal'].includes(value.kind as string) &&
    typeof value.recipient === 'string' &&
    typeof value.description === 'string' &&
    isRecord(value.detail) &&
    (value.state === undefined || STORED_STATES.includes(value.state)) &&
    (value.cancelReason === undefined || typeof value.cancelReason === 'string') &&
    (origin === undefined ||
      (isRecord(origin) &&
        typeof origin.number === 'string' &&
        /^\d+$/.test(origin.number) &&
        typeof origin.sender === 'string'))
  );
};

/**
 * Reads a stored ask store; what does not read is left out (`lost` counts
 * it). A version 4 ask (no state) was sent and waits for its answer.
 */
export const readAskStore = (value: unknown): { store: AskStore; lost: number } => {
  if (!isRecord(value) || !Array.isArray(value.pending))
    return { store: emptyAskStore(), lost: value === undefined ? 0 : 1 };
  const pending = value.pending
    .filter(isStoredAsk)
    .map(ask => ({ ...ask, state: ask.state ?? ('sent' as const) }));
  const next =
    typeof value.next === 'number' && Number.isSafeInteger(value.next) && value.next > 0
      ? value.next
      : pending.length + 1;
  return { store: { next, pending }, lost: value.pending.length - pending.length };
};
harden(readAskStore);

export const storedOrigin = (origin: Origin | undefined): StoredAsk['origin'] =>
  origin === undefined ? undefined : { number: String(origin.number), sender: origin.sender };
harden(storedOrigin);

export const originOfAsk = (ask: StoredAsk): Origin | undefined =>
  ask.origin === undefined
    ? undefined
    : { number: BigInt(ask.origin.number), sender: ask.origin.sender };
harden(originOfAsk);

/**
 * How an ask from before a restart ended: the other side answered, refused,
 * its copy was gone (`lost`), or the yes had come and the call was running
 * when the agent stopped (`interrupted`: it may or may not have finished;
 * `cancelled`: the agent's cancellation stopped it, and said so in the store).
 */
export type Settlement = 'fulfilled' | 'rejected' | 'lost' | 'interrupted' | 'cancelled';

/**
 * Whether a rejection only says the connection to the daemon went away (a
 * restart under way): that is no answer, and the ask keeps waiting.
 */
export const isDisconnection = (error: unknown): boolean =>
  /\b(disconnected|connection (closed|lost|reset)|captp)\b/i.test(describeError(error));
harden(isDisconnection);

/** The agent's own copy of something it sent, as the mail gives it. */
interface OwnCopy {
  type?: unknown;
  number?: unknown;
  description?: unknown;
  source?: unknown;
  resultName?: unknown;
  settled?: unknown;
}

type FinishAsk = (ask: StoredAsk, settlement: Settlement) => void | Promise<void>;

/** A new ask, as its tracker describes it. */
export type NewAsk = Omit<StoredAsk, 'id' | 'state'>;

export interface PendingAsks {
  /**
   * Runs `step` once the store has been written after what was just done
   * (at once when nothing writes it): an own copy is dismissed only once
   * the outcome's notice is stored, so a restart in between loses nothing.
   */
  afterSave(step: () => void): void;
  /** Makes an ask (made, and stored) under a new id from `prefix` (r, a, p), described knowing its id; returns the id. */
  make(prefix: string, describe: (id: string) => NewAsk): string;
  /** The ask went out to the daemon. */
  sent(id: string): void;
  /** The other side answered: what to do (`act` on a yes, `refuse` on a no, else `ignore`). */
  answer(id: string, verdict: 'yes' | 'no'): AskEffect;
  /**
   * The connection broke before an answer: no refusal. The ask keeps
   * waiting, followed through its own copy when it has come by (its answer
   * is then finished as after a restart), else by the next run.
   */
  disconnected(id: string): void;
  /**
   * The call an ask's yes started was stopped by the agent's cancellation (`why`): stored as
   * cancelled, so the next run tells that. Called as the run stops, before `stop`.
   */
  cancelled(id: string, why: string): void;
  /** The ask's outcome is queued for the model: it leaves the store, and its own copy is dismissed once stored. */
  told(id: string): void;
  /** Whether the own copy belongs to an ask (then it stays in the inbox until that ask is told; a told one's copy is dismissed). */
  claimOwnCopy(message: OwnCopy): boolean;
  /**
   * At start: follows every ask stored by the previous run through its own
   * copy in the inbox; `finish` is called once each is settled (or, with
   * 'lost', when its copy is no longer there; 'interrupted' when its call
   * was running). `finish` also finishes an ask followed after a disconnection.
   */
  resume(finish: FinishAsk): Promise<void>;
  /** The asks pending (as stored), oldest first. */
  pending(): readonly StoredAsk[];
  /** The one answer to "is something pending for message N": an ask made while serving it. */
  hasPendingFor(number: bigint): boolean;
  /**
   * The agent is stopping: an answer that arrives from now on is the next
   * run's to follow (it finds the ask in the store), so nothing is acted
   * on, settled or dismissed here any more.
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

/** One ask as its owner holds it in this run. */
interface Life {
  ask: StoredAsk;
  state: AskState;
  /** Its own copy in the inbox, once it has come by (numbers are not stored: resume finds them again). */
  copy?: { number: bigint; settled: unknown };
  /** The connection broke before its answer: it is followed through its copy. */
  disconnected?: boolean;
}

/**
 * At start: the asks the previous run stored. One whose call was running
 * is `interrupted`; the others are followed through their own copies in
 * the inbox, or `lost` when their copy is gone.
 */
const resumeLives = async (run: {
  lives: Map<string, Life>;
  powers: PowersRef;
  log: Log;
  step: (id: string, event: AskEvent) => AskEffect;
  copyTaken: (number: bigint) => boolean;
  followCopy: (id: string, life: Life, finish: FinishAsk) => void;
  finish: FinishAsk;
}): Promise<void> => {
  const { lives, step, finish } = run;
  const earlier = [...lives].filter(([, life]) => isPending(life.state));
  // Its yes had come and its call was running: nothing in the inbox can say whether it finished,
  // unless the run that ran it stored that its cancellation stopped it.
  for (const [, life] of earlier.filter(([, entry]) => entry.state === 'settled'))
    void finish(life.ask, 'interrupted');
  for (const [, life] of earlier.filter(([, entry]) => entry.state === 'cancelled'))
    void finish(life.ask, 'cancelled');
  const waiting = earlier.filter(
    ([, life]) => life.state !== 'settled' && life.state !== 'cancelled',
  );
  if (waiting.length === 0) return;
  let inbox: OwnCopy[] = [];
  try {
    inbox = (await E(run.powers).listMessages()) as OwnCopy[];
  } catch (error) {
    run.log(
      `could not read the inbox to follow ${waiting.length} pending ask(s): ${String(error)}`,
    );
    return;
  }
  for (const [id, life] of waiting) {
    // The first copy of its text that no other ask has taken: two asks never share one.
    const copy = inbox.find(
      message =>
        typeof message.number === 'bigint' &&
        !run.copyTaken(message.number) &&
        copyMatches(life.ask, message),
    );
    if (copy === undefined) {
      if (step(id, 'copy-gone') !== 'ignore') void finish(life.ask, 'lost');
      continue;
    }
    life.copy = { number: copy.number as bigint, settled: copy.settled };
    run.followCopy(id, life, finish);
  }
};

/** Told asks whose copy has not come by are kept this long (a copy comes within moments). */
const TOLD_KEPT = 64;

/** Runs a step once the store is written (a microtask later, so the notice pushed right after a settlement is in the snapshot). */
const makeAfterSave =
  (save: (() => Promise<void>) | undefined) =>
  (step: () => void): void => {
    void Promise.resolve()
      .then(() => save?.())
      .then(step, step);
  };

/** The store keeps a pending ask's record with its state, and drops it once no longer pending. */
const mirrorIn = (store: AskStore, life: Life) => {
  if (isPending(life.state)) {
    life.ask.state = life.state as StoredState;
    return;
  }
  const index = store.pending.indexOf(life.ask);
  if (index !== -1) store.pending.splice(index, 1);
};

export const makePendingAsks = (options: {
  store: AskStore;
  powers: PowersRef;
  log: Log;
  /** Writes the agent's store (memory/agent-memory.ts). */
  save?: () => Promise<void>;
}): PendingAsks => {
  const { store, powers, log } = options;
  const afterSave = makeAfterSave(options.save);
  // Each life's `ask` is its record in the store while it is pending.
  const lives = new Map<string, Life>(
    store.pending.map(ask => [ask.id, { ask, state: ask.state ?? 'sent' }]),
  );
  // Told asks whose copy may still come by, oldest first.
  const toldIds: string[] = [];
  let stopped = false;
  let finishLater: FinishAsk | undefined;

  const mirror = (life: Life) => mirrorIn(store, life);

  const dismiss = (number: bigint) =>
    Promise.resolve(E(powers).dismiss(number)).catch((error: unknown) =>
      log(`could not dismiss own copy #${number}: ${String(error)}`),
    );

  /** Moves an ask on; what to do comes back. */
  const step = (id: string, event: AskEvent): AskEffect => {
    const life = lives.get(id);
    if (life === undefined) return 'ignore';
    const { state, effect } = nextAsk(life.state, event, !stopped);
    life.state = state;
    if (effect !== 'ignore') mirror(life);
    return effect;
  };

  const dismissCopy = (id: string, life: Life) => {
    if (life.copy === undefined) return;
    const { number } = life.copy;
    step(id, 'dismiss');
    lives.delete(id);
    void dismiss(number);
  };

  /** Told long ago and no copy came: forgotten, oldest first. */
  const forgetOldTold = (id: string) => {
    toldIds.push(id);
    for (const old of toldIds.splice(0, Math.max(0, toldIds.length - TOLD_KEPT)))
      if (lives.get(old)?.state === 'told') lives.delete(old);
  };

  const copyTaken = (number: bigint) =>
    [...lives.values()].some(life => life.copy?.number === number);

  /** Follows an ask's own copy until it settles, then finishes it as after a restart. */
  const followCopy = (id: string, life: Life, finish: FinishAsk) => {
    // Not awaited: the other side may answer in minutes or days.
    void Promise.resolve(life.copy?.settled).then(
      async (settlement: unknown) => {
        const fulfilled = settlement === 'fulfilled';
        if (step(id, fulfilled ? 'yes' : 'no') === 'ignore') return;
        await finish(life.ask, fulfilled ? 'fulfilled' : 'rejected');
      },
      async () => {
        if (step(id, 'no') !== 'ignore') await finish(life.ask, 'rejected');
      },
    );
  };

  const claimOwnCopy = (message: OwnCopy): boolean => {
    if (typeof message.number !== 'bigint') return false;
    const { number } = message;
    if (copyTaken(number)) return true;
    // The oldest ask of that text without a copy: two asks of one text never share a copy.
    const found = [...lives].find(
      ([, life]) =>
        life.copy === undefined &&
        (isPending(life.state) || life.state === 'told') &&
        copyMatches(life.ask, message),
    );
    if (found === undefined) return false;
    const [id, life] = found;
    life.copy = { number, settled: message.settled };
    // Its outcome was told before the copy came by: it goes now.
    if (life.state === 'told') dismissCopy(id, life);
    // Its answer can no longer come the way it was asked: the copy says how it ends.
    else if (life.disconnected === true && finishLater !== undefined)
      followCopy(id, life, finishLater);
    return true;
  };

  return {
    afterSave,
    make(prefix, describe) {
      const id = `${prefix}${store.next}`;
      store.next += 1;
      const ask: StoredAsk = { ...describe(id), id, state: 'made' };
      lives.set(id, { ask, state: 'made' });
      store.pending.push(ask);
      return id;
    },
    sent: id => void step(id, 'send'),
    answer: (id, verdict) => step(id, verdict),
    disconnected(id) {
      if (step(id, 'disconnect') !== 'wait') return;
      const life = lives.get(id)!;
      log(`the connection broke while ${id} waited for ${life.ask.recipient}; it keeps waiting`);
      life.disconnected = true;
      if (life.copy !== undefined && finishLater !== undefined) followCopy(id, life, finishLater);
    },
    cancelled(id, why) {
      if (step(id, 'cancel') === 'ignore') return;
      lives.get(id)!.ask.cancelReason = why;
    },
    told(id) {
      const life = lives.get(id);
      if (life === undefined || step(id, 'tell') === 'ignore') return;
      forgetOldTold(id);
      // Once the outcome's notice is stored: until then a restart follows the ask through its copy.
      if (life.copy !== undefined) afterSave(() => dismissCopy(id, life));
    },
    claimOwnCopy,
    async resume(finish) {
      finishLater = finish;
      await resumeLives({ lives, powers, log, step, copyTaken, followCopy, finish });
    },
    pending: () => store.pending,
    hasPendingFor: number =>
      [...lives.values()].some(
        life => isPending(life.state) && life.ask.origin?.number === String(number),
      ),
    stop() {
      stopped = true;
    },
    stopped: () => stopped,
  };
};
harden(makePendingAsks);
