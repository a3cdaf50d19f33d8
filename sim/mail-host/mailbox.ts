/**
 * One agent's inbox: numbered, stamped, hardened message records; dismissal;
 * a feed that yields every undismissed message and then each new one; and the
 * persisted form the daemon reloads after a restart.
 */
import { makeGuardedExo } from './guarded-exo.js';
import { M } from '@endo/patterns';
import type { InterfaceGuard } from '@endo/patterns';
import { makeMailboxFeed, type OpenFeed } from './mailbox-follow.js';
import { makeTopic } from './topic.js';
import type { Subscription } from './topic.js';
import type { Dismisser, Envelope, MessageRecord, Settlement } from './types.js';

export const DismisserInterface: InterfaceGuard = M.interface('EndoDismisser', {
  dismiss: M.call().returns(M.promise()),
});

/** What the daemon keeps on disk for a message: the envelope without live objects, plus its date. */
type StoredMessage = { readonly envelope: Envelope; readonly date: string };

export interface Mailbox {
  deliver(envelope: Envelope): MessageRecord;
  get(number: bigint): MessageRecord | undefined;
  list(): MessageRecord[];
  /** Every undismissed message (checked again as it is reached), then each new one. */
  follow(): Subscription<MessageRecord>;
  /** A feed of new messages only. */
  subscribeNew(): Subscription<MessageRecord>;
  dismiss(number: bigint): void;
  /** Fails every open followMessages iterator with this error. */
  failFollowers(error: Error): void;
  /** Types of undismissed messages the daemon cannot reload, with their numbers. */
  unloadable(): { number: bigint; type: string }[];
  /** Rebuilds every record as the daemon does when it reloads the mailbox after a restart. */
  reload(settledFor: (promiseId: string) => Promise<Settlement>): void;
  /** Breaks every feed (the connection went away). */
  disconnect(error: Error): void;
  /**
   * Newest daemon: replaces a message with a revision under the same number
   * (kept dismissible by its old dismisser) and shows it to every feed again.
   */
  revise(number: bigint, envelope: Envelope): MessageRecord;
  /** Newest daemon: the revisions of a message since this incarnation loaded it, oldest first. */
  history(number: bigint): readonly Revision[];
  /** How many follows are open (not ended by return() nor failed). */
  followers(): number;
}

/** One revision of a message, as messageHistory reports it (before locators are written in). */
export interface Revision {
  readonly envelope: Envelope;
  readonly done: boolean;
  readonly date: string;
}

/** The daemon's error (at f0a46042a) for a mailbox it cannot reload: it holds an eval-proposal message. */
export const MAILBOX_LOAD_ERROR = 'Unknown message formula type';

const unloadableTypes = new Set(['eval-proposal-reviewer', 'eval-proposal-proposer']);

/** `withDone`: the newest daemon stamps every message with `done` (true unless a revision says otherwise). */
export const makeMailbox = (now: () => Date, { withDone = false }: { withDone?: boolean } = {}): Mailbox => {
  const messages = new Map<bigint, MessageRecord>();
  const stored = new Map<bigint, StoredMessage>();
  // The daemon keeps revisions in memory only: after a restart a message's history starts again empty.
  const revisions = new Map<bigint, Revision[]>();
  const topic = makeTopic<MessageRecord>();
  const feeds = new Set<OpenFeed>();
  let nextNumber = 0n;

  const doneOf = (fields: Record<string, unknown>) => (withDone ? { done: fields.done ?? true } : {});

  const stamp = (number: bigint, fields: Record<string, unknown>, date: string): MessageRecord => {
    let resolveDismissed!: () => void;
    const dismissed = new Promise<void>(resolve => {
      resolveDismissed = resolve;
    });
    // The record this dismisser stands for now (a revision takes the place of the one before).
    const live: { record?: MessageRecord } = {};
    const dismisser = makeGuardedExo<Dismisser>('Dismisser', DismisserInterface, {
      async dismiss() {
        // A dismisser from before a restart no longer names a live record.
        if (messages.get(number) !== live.record) return undefined;
        messages.delete(number);
        stored.delete(number);
        revisions.delete(number);
        resolveDismissed();
        return undefined;
      },
    });
    const record = harden({ ...fields, ...doneOf(fields), number, date, dismissed, dismisser }) as unknown as MessageRecord;
    live.record = record;
    lives.set(record, live);
    return record;
  };
  const lives = new WeakMap<MessageRecord, { record?: MessageRecord }>();

  const dismiss = (number: bigint) => {
    const record = messages.get(number);
    if (record === undefined) throw Error(`Invalid request number ${number}`);
    void record.dismisser.dismiss();
  };

  return {
    deliver: envelope => {
      const number = nextNumber;
      nextNumber += 1n;
      const date = now().toISOString();
      const record = stamp(number, envelope as unknown as Record<string, unknown>, date);
      messages.set(number, record);
      stored.set(number, harden({ envelope, date }));
      if (withDone) revisions.set(number, [harden({ envelope, done: (record as { done?: boolean }).done ?? true, date })]);
      topic.publish(record);
      return record;
    },
    revise: (number, envelope) => {
      const existing = messages.get(number);
      if (existing === undefined) throw Error(`No such message with number ${JSON.stringify(String(number))}`);
      const date = now().toISOString();
      const fields = envelope as unknown as Record<string, unknown>;
      const record = harden({
        ...fields,
        ...doneOf(fields),
        number,
        date,
        dismissed: existing.dismissed,
        dismisser: existing.dismisser,
      }) as unknown as MessageRecord;
      const live = lives.get(existing);
      if (live) {
        live.record = record;
        lives.set(record, live);
      }
      messages.set(number, record);
      stored.set(number, harden({ envelope, date }));
      const done = (record as { done?: boolean }).done ?? true;
      revisions.set(number, [...(revisions.get(number) ?? []), harden({ envelope, done, date })]);
      topic.publish(record);
      return record;
    },
    history: number => {
      if (!messages.has(number)) throw Error(`No such message with number ${JSON.stringify(String(number))}`);
      return harden([...(revisions.get(number) ?? [])]);
    },
    get: number => messages.get(number),
    list: () => [...messages.values()],
    follow: () => makeMailboxFeed(messages, topic, feeds),
    subscribeNew: () => topic.subscribe(),
    dismiss,
    unloadable: () =>
      [...messages.values()]
        .filter(record => unloadableTypes.has(record.type))
        .map(record => ({ number: record.number, type: record.type })),
    reload: settledFor => {
      const problems = [...stored.entries()].filter(([, { envelope }]) => unloadableTypes.has(envelope.type));
      if (problems.length > 0) {
        const list = problems.map(([number, { envelope }]) => `#${number} (${envelope.type})`).join(', ');
        throw Error(
          `${MAILBOX_LOAD_ERROR}: the mailbox cannot be reloaded because it holds undismissed ${list}; ` +
            'the daemon cannot revive eval-proposal messages, dismiss them once settled',
        );
      }
      messages.clear();
      revisions.clear();
      for (const [number, { envelope, date }] of stored) {
        // Reloaded records always carry replyTo (possibly undefined) and a fresh dismisser.
        const fields: Record<string, unknown> = { ...envelope, replyTo: envelope.replyTo };
        if (envelope.type === 'request') fields.settled = settledFor(envelope.promiseId);
        messages.set(number, stamp(number, fields, date));
      }
    },
    failFollowers: error => {
      for (const feed of [...feeds]) feed.fail(error);
    },
    disconnect: error => {
      for (const feed of [...feeds]) feed.fail(error);
      topic.failAll(error);
    },
    followers: () => feeds.size,
  };
};
