/**
 * Names a formula id for the model by the guest's pet name for it
 * (`reverseIdentify`), falling back to a short form of the id rather than
 * 257 characters of hex. The name is also whom the policy trusts
 * (LAL_TRUSTED_SENDERS), so it must be what the directory says now: a name
 * is kept only while the directory's changes are followed
 * (`followNameChanges`), and a change that touches it (the name removed or
 * re-pointed, a name added for that sender) forgets it, so the sender's next
 * message is named afresh. Changes that touch no kept name (the agent's own
 * writes) forget nothing. Until following has begun, or once it has ended,
 * every name is looked up again (a stream that comes once the agent is
 * cancelled is closed, never followed). A sender without a pet name is shown by
 * the same eight digits of its formula number every time, and, when the
 * node part of its id is not this daemon's, as writing from another daemon
 * (connected over Endo's network), and which.
 */
import { E } from '@endo/far';
import type { Log } from '../log/log.js';
import { describeError } from '../../providers/describe-error.js';

/** Never rejects: a sender whose name cannot be had is shown by a short form of its id. */
export type NameOf = (id: unknown) => Promise<string>;

/** How an id without a pet name is shown: `unnamed 9a7fd267`, with `on another daemon (node 3c1d2e4f)` when it is. */
export const unnamedSender = (id: string, selfNode: string | undefined): string => {
  const [number = '', node] = id.split(':');
  // Not a formula id (a test's, a malformed message's): shown whole.
  if (number.length <= 16) return id;
  const short = `unnamed ${number.slice(0, 8)}`;
  if (node === undefined || selfNode === undefined || node === selfNode) return short;
  return `${short} on another daemon (node ${node.slice(0, 8)})`;
};
harden(unnamedSender);

const SENDERS_REMEMBERED = 512;
/**
 * The newest daemon lists a directory's names lazily (its pet-store.js reads
 * each name's id as it yields it): a name removed while the first listing is
 * read — Fae moving introduced tools into tools/ at start — fails the listing
 * with `Invalid formula identifier "[undefined]"`. Following again lists what
 * is there then; a few times, then it is given up as any other failure.
 */
const LISTING_RACE = /Invalid formula identifier/;
const LISTING_ATTEMPTS = 3;

/** How this daemon spells its special names and its message ids (daemon/daemon-adapter.ts); f0a46042a's by default. */
export interface SenderNaming {
  names: { host: string; self: string };
  idOf: (idOrLocator: unknown) => string | undefined;
  /**
   * Follows a directory's name changes as this daemon gives them (an iterator
   * at f0a46042a, an exo-stream reader in the newest: daemon-adapter.ts); the
   * f0a46042a iterator when not given.
   */
  followNameChanges?: (directory: unknown) => Promise<NameChanges>;
  /** The guest's own id (its node is this daemon's), when known. */
  selfId?: string | undefined;
}

/** Following the directory's changes, so names can be kept between messages. */
export interface FollowNames {
  /** Ends the following (the agent is cancelled). */
  signal: AbortSignal;
  log: Log;
}

interface NameChanges {
  next(): Promise<IteratorResult<unknown>>;
  return(value?: unknown): Promise<unknown>;
}

/** One entry of `followNameChanges`: a name added (pointing at a formula) or removed. */
interface NameChange {
  add?: unknown;
  remove?: unknown;
  value?: { number?: unknown; node?: unknown };
}

/** A name being looked up, and once known, the name. */
interface Kept {
  named: Promise<string>;
  name?: string;
}

/** Forgets what a change to the directory may have made wrong; anything unreadable forgets all. */
const forget = (cache: Map<string, Kept>, change: unknown) => {
  const { add, remove, value } = (change ?? {}) as NameChange;
  const name = typeof add === 'string' ? add : remove;
  if (typeof name !== 'string') {
    cache.clear();
    return;
  }
  // A look-up still under way may have been answered before this change: it goes too.
  for (const [id, kept] of [...cache]) {
    if (kept.name === undefined || kept.name === name) cache.delete(id);
  }
  if (typeof add === 'string') {
    // The sender this name now stands for may prefer it (the special host name, say).
    if (typeof value?.number !== 'string' || typeof value.node !== 'string') cache.clear();
    else cache.delete(`${value.number}:${value.node}`);
  }
};

interface NamePowers {
  reverseIdentify(id: string): string[];
  followNameChanges(): NameChanges;
}

export const makeSenderNames = (
  powers: unknown,
  naming?: SenderNaming,
  follow?: FollowNames,
): NameOf => {
  const host = naming?.names.host ?? 'HOST';
  const self = naming?.names.self ?? 'SELF';
  const selfNode = naming?.selfId?.split(':')[1];
  const shortId = (id: string) => unnamedSender(id, selfNode);
  const remote = powers as NamePowers;
  // Senders come and go over a long run: keep the most recently named ones (least recent first).
  const cache = new Map<string, Kept>();
  const keep = (id: string, kept: Kept) => {
    cache.delete(id);
    cache.set(id, kept);
    while (cache.size > SENDERS_REMEMBERED) cache.delete(cache.keys().next().value as string);
  };
  // Names are kept only while every change to the directory reaches us.
  let following = false;

  const openIterator = async (): Promise<NameChanges> => {
    const iterator = await E(remote).followNameChanges();
    return {
      next: () => E(iterator).next(),
      return: (value?: unknown) => E(iterator).return(value),
    };
  };
  const followChanges = async ({ signal, log }: FollowNames): Promise<void> => {
    if (signal.aborted) return;
    const changes = await (naming?.followNameChanges?.(powers) ?? openIterator());
    const stop = () => {
      following = false;
      cache.clear();
      Promise.resolve(changes.return(undefined)).catch(() => {});
    };
    if (signal.aborted) stop();
    else signal.addEventListener('abort', stop, { once: true });
    if (signal.aborted) return;
    following = true;
    try {
      for (;;) {
        // eslint-disable-next-line no-await-in-loop -- one change at a time, in the daemon's order
        const step = await changes.next();
        if (step.done || signal.aborted) break;
        forget(cache, step.value);
      }
    } finally {
      following = false;
      cache.clear();
      signal.removeEventListener('abort', stop);
    }
    if (!signal.aborted) log('stopped following name changes: senders are named afresh each time');
  };
  const followThroughRaces = async (options: FollowNames, attempt = 1): Promise<void> => {
    try {
      await followChanges(options);
    } catch (error) {
      const again =
        attempt < LISTING_ATTEMPTS &&
        !options.signal.aborted &&
        LISTING_RACE.test(describeError(error));
      if (!again) throw error;
      await followThroughRaces(options, attempt + 1);
    }
  };
  if (follow !== undefined) {
    followThroughRaces(follow).catch(error => {
      following = false;
      cache.clear();
      if (!follow.signal.aborted) {
        follow.log(
          `could not follow name changes (${describeError(error)}): senders are named afresh each time`,
        );
      }
    });
  }

  // Forgets this look-up only: a newer one for the id may have taken its place.
  const drop = (id: string, kept: Kept | undefined) => {
    if (kept !== undefined && cache.get(id) === kept) cache.delete(id);
  };
  const lookUp = async (id: string, kept?: Kept): Promise<string> => {
    try {
      const names: unknown = await E(remote).reverseIdentify(id);
      const list = Array.isArray(names)
        ? names.filter((name): name is string => typeof name === 'string')
        : [];
      // A person's own pet name reads better than a special name, except for HOST.
      const preferred =
        list.find(name => name === host) ?? list.find(name => name !== self) ?? list[0];
      // No name yet: ask again next time, the host may introduce one.
      if (preferred === undefined) drop(id, kept);
      else if (kept !== undefined) kept.name = preferred;
      return preferred ?? shortId(id);
    } catch {
      drop(id, kept);
      return shortId(id);
    }
  };
  return given => {
    // The newest daemon writes senders as endo:// locators; reverseIdentify takes the formula id.
    const id = naming === undefined ? given : (naming.idOf(given) ?? given);
    if (typeof id !== 'string' || id === '') return Promise.resolve('unknown sender');
    if (!following) return lookUp(id);
    const known = cache.get(id);
    if (known !== undefined) {
      keep(id, known);
      return known.named;
    }
    const kept: Kept = { named: Promise.resolve('') };
    kept.named = lookUp(id, kept);
    keep(id, kept);
    return kept.named;
  };
};
harden(makeSenderNames);
