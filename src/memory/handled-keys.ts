/**
 * The keys of the messages the agent answered (docs/behaviour.md 2.5): a
 * message the daemon shows again, after a restart or when its mail is
 * followed again, is dismissed, never answered twice. Only a message still in
 * the inbox can be shown again (docs/daemon-api.md: `followMessages` replays
 * every undismissed message; an edit of a dismissed one fails), so the stored
 * list (`memory.handled`, written after every piece of work) holds only the
 * keys of answered messages whose dismissal the daemon has not confirmed: one
 * whose dismissal failed or was not done yet, or that is kept on purpose (a
 * proposal, request, approval or helper still pending for it). A key leaves
 * it once its message's dismissal settles, and at start the keys of messages
 * no longer in the inbox leave (`letGoOfGoneMail`), so a list stored before
 * this rule shrinks too. A ping's memory then carries no key at all where it
 * carried up to `LAL_REMEMBER_HANDLED` of them (issue 46: ~7.7 KB of a 16 KB
 * memory, escaped twice on its way to the daemon).
 *
 * Within a run the keys of messages dismissed are still known (a bounded
 * set), so a showing that was already on its way when its message was
 * dismissed is still told apart (../mail/revision-gate.ts).
 */
import { E } from '@endo/far';
import type { PowersRef } from '../daemon/guest-powers.js';
import { makeBoundedSet } from '../lifecycle/bounded-collections.js';
import type { Log } from '../log/log.js';
import { messageKey, type MessageRecord } from '../mail/message-record.js';
import { describeError } from '../../providers/describe-error.js';

export interface HandledKeys {
  /** Whether the message was answered: its key stored, or its message dismissed in this run. */
  has(key: string): boolean;
  /**
   * Message `number` was answered (or shown again once it was): its key is stored until the
   * daemon confirms its dismissal.
   */
  add(key: string, number: bigint): void;
  /** The daemon confirmed that message `number` was dismissed: its key need not be stored. */
  dismissed(number: bigint): void;
  /** Whether the message of this key was dismissed in this run (a showing may still come after). */
  wasDismissed(key: string): boolean;
  /** The keys stored now, oldest first. */
  stored(): readonly string[];
  /** Lets stored keys go: their messages are no longer in the inbox, so never shown again. */
  letGo(keys: readonly string[]): void;
}

/**
 * Keeps `stored` (the memory's list, changed in place: it is what is written) to at most `limit`
 * keys, forgetting the oldest first.
 */
export const trackHandled = (stored: string[], limit: number): HandledKeys => {
  /** Each stored key, with its message's number in this run once known. */
  const numbers = new Map<string, bigint | undefined>(stored.map(key => [key, undefined]));
  /** Keys of messages dismissed in this run. */
  const dismissedKeys = makeBoundedSet<string>(limit);
  /** Numbers dismissed before their message was marked answered (the model dismissed it during its turn). */
  const early = makeBoundedSet<bigint>(limit);
  const drop = (key: string) => {
    if (!numbers.delete(key)) return;
    stored.splice(stored.indexOf(key), 1);
  };
  return {
    has: key => numbers.has(key) || dismissedKeys.has(key),
    add(key, number) {
      if (early.delete(number)) {
        drop(key);
        dismissedKeys.add(key);
        return;
      }
      if (!numbers.has(key)) stored.push(key);
      numbers.set(key, number);
      if (stored.length > limit)
        for (const forgotten of stored.splice(0, stored.length - limit)) numbers.delete(forgotten);
    },
    dismissed(number) {
      for (const [key, known] of numbers) {
        if (known !== number) continue;
        drop(key);
        dismissedKeys.add(key);
        return;
      }
      early.add(number);
    },
    wasDismissed: key => dismissedKeys.has(key),
    stored: () => [...stored],
    letGo(keys) {
      for (const key of keys) drop(key);
    },
  };
};
harden(trackHandled);

/**
 * At start, before mail is followed: the stored keys of messages no longer in the inbox go. The
 * inbox is listed once, and only when keys are stored; a listing that fails keeps them all.
 */
export const letGoOfGoneMail = async (
  powers: PowersRef,
  handled: Pick<HandledKeys, 'stored' | 'letGo'>,
  log: Log,
): Promise<void> => {
  // Only keys stored before the listing: one added meanwhile may be of a message it missed.
  const before = handled.stored();
  if (before.length === 0) return;
  try {
    const inbox = new Set(
      ((await E(powers).listMessages()) as MessageRecord[]).map(message => messageKey(message)),
    );
    const gone = before.filter(key => !inbox.has(key));
    handled.letGo(gone);
    if (gone.length > 0)
      log(
        `let go of ${gone.length} handled message id(s) whose messages are no longer in the inbox`,
      );
  } catch (error) {
    log(`could not list the inbox (${describeError(error)}); the handled message ids are kept`);
  }
};
harden(letGoOfGoneMail);

/**
 * The handled keys' ear on the guest powers (../daemon/held-formulas.ts, `answered`): the powers
 * are made before the memory is read, so each dismissal that goes through is passed on from the
 * moment the keys exist (`reach`), which also lets go of the keys of mail gone from the inbox,
 * before the mail is followed.
 */
export interface DismissalEar {
  /** For the guest powers: told of each call the daemon answered. */
  answered(method: string, args: readonly unknown[]): void;
  /** The keys exist: from now on they hear of each dismissal; the keys of mail gone go. */
  reach(handled: HandledKeys, powers: PowersRef, log: Log): Promise<void>;
}

export const makeDismissalEar = (): DismissalEar => {
  let hear = (number: bigint): void => void number;
  return {
    answered: (method: string, args: readonly unknown[]) => {
      if (method === 'dismiss' && typeof args[0] === 'bigint') hear(args[0]);
    },
    reach: async (handled: HandledKeys, powers: PowersRef, log: Log): Promise<void> => {
      hear = handled.dismissed;
      await letGoOfGoneMail(powers, handled, log);
    },
  };
};
harden(makeDismissalEar);
