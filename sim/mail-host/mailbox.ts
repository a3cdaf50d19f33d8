/**
 * One agent's inbox: numbered, stamped, hardened message records; dismissal;
 * a feed that yields every undismissed message and then each new one; and the
 * persisted form the daemon reloads after a restart.
 */
import { makeMailboxFeed, type OpenFeed } from './mailbox-follow.js';
import { reloadMailbox, unloadableOf } from './mailbox-reload.js';
import { makeMessageStamps, type MailboxContents, type Revision } from './message-records.js';
import { quote } from './pet-name.js';
import { makeTopic } from './topic.js';
import type { Subscription } from './topic.js';
import type { Envelope, MessageRecord, Settlement } from './types.js';

// eslint-disable-next-line @endo/harden-exports -- hardened where it is defined (mailbox-reload.ts)
export { MAILBOX_LOAD_ERROR } from './mailbox-reload.js';
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
  /** Removes what the daemon cannot reload, as the HOST's recovery on disk does (docs/daemon-guide.md). */
  dropUnloadable(): void;
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
  /** The number the next message gets. */
  nextNumber(): bigint;
  /** Numbers go on from `next` (a daemon made again from its state), never back. */
  continueFrom(next: bigint): void;
  /**
   * The undismissed text messages (no value attached) and requests, as the
   * simulator's state folder keeps them between runs, oldest first.
   */
  keptMessages(): { number: bigint; envelope: Envelope; date: string }[];
  /** Puts back a message an earlier run kept, under its number; numbering goes on past it. */
  putBack(number: bigint, envelope: Envelope, date: string): void;
}

/** `withDone`: the newest daemon stamps every message with `done` (true unless a revision says otherwise). */
export const makeMailbox = (
  now: () => Date,
  { withDone = false }: { withDone?: boolean } = {},
): Mailbox => {
  const contents: MailboxContents = {
    messages: new Map(),
    stored: new Map(),
    revisions: new Map(),
  };
  const { messages, stored, revisions } = contents;
  const { stamp, restamp } = makeMessageStamps(contents, withDone);
  const topic = makeTopic<MessageRecord>();
  const feeds = new Set<OpenFeed>();
  let nextNumber = 0n;

  const dismiss = (number: bigint) => {
    const record = messages.get(number);
    if (record === undefined) throw Error(`Invalid request number ${number}`);
    void record.dismisser.dismiss();
  };

  /** A message in the box under its number: its record, what is kept of it, its first revision. */
  const place = (number: bigint, envelope: Envelope, date: string): MessageRecord => {
    const record = stamp(number, envelope, date);
    messages.set(number, record);
    stored.set(number, harden({ envelope, date }));
    if (withDone) {
      const done = (record as { done?: boolean }).done ?? true;
      // The daemon's first revision carries done in its envelope too.
      revisions.set(number, [harden({ envelope: harden({ ...envelope, done }), done, date })]);
    }
    return record;
  };

  return {
    deliver: envelope => {
      const number = nextNumber;
      nextNumber += 1n;
      const record = place(number, envelope, now().toISOString());
      topic.publish(record);
      return record;
    },
    revise: (number, envelope) => {
      const existing = messages.get(number);
      if (existing === undefined) throw Error(`No such message with number ${quote(number)}`);
      const date = now().toISOString();
      const record = restamp(existing, envelope, date);
      messages.set(number, record);
      stored.set(number, harden({ envelope, date }));
      const done = (record as { done?: boolean }).done ?? true;
      revisions.set(number, [...(revisions.get(number) ?? []), harden({ envelope, done, date })]);
      topic.publish(record);
      return record;
    },
    history: number => {
      if (!messages.has(number)) throw Error(`No such message with number ${quote(number)}`);
      return harden([...(revisions.get(number) ?? [])]);
    },
    get: number => messages.get(number),
    list: () => [...messages.values()],
    follow: () => makeMailboxFeed(messages, topic, feeds),
    subscribeNew: () => topic.subscribe(),
    dismiss,
    unloadable: () => unloadableOf(messages),
    dropUnloadable: () => {
      for (const { number } of unloadableOf(messages)) {
        messages.delete(number);
        stored.delete(number);
      }
    },
    reload: settledFor => reloadMailbox(contents, stamp, settledFor, !withDone),
    failFollowers: error => {
      for (const feed of [...feeds]) feed.fail(error);
    },
    disconnect: error => {
      for (const feed of [...feeds]) feed.fail(error);
      topic.failAll(error);
    },
    followers: () => feeds.size,
    nextNumber: () => nextNumber,
    continueFrom: next => {
      if (next > nextNumber) nextNumber = next;
    },
    keptMessages: () =>
      [...stored.entries()]
        .filter(
          ([number, { envelope }]) =>
            messages.has(number) &&
            ((envelope.type === 'package' && envelope.ids.length === 0) ||
              envelope.type === 'request'),
        )
        .map(([number, { envelope, date }]) => ({ number, envelope, date })),
    putBack: (number, envelope, date) => {
      if (messages.has(number)) return;
      place(number, envelope, date);
      if (number >= nextNumber) nextNumber = number + 1n;
    },
  };
};
harden(makeMailbox);
