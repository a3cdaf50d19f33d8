/**
 * followMessages' feed over one mailbox: every undismissed message (checked
 * again as it is reached), then each new one; it can be ended, or failed
 * with an error (a broken connection, a fault injected by the tests).
 */
import type { Subscription, Topic } from './topic.js';
import type { MessageRecord } from './types.js';

/** An open feed, as the mailbox keeps it to fail it later. */
export interface OpenFeed {
  fail(error: Error): void;
}

export const makeMailboxFeed = (
  messages: ReadonlyMap<bigint, MessageRecord>,
  topic: Topic<MessageRecord>,
  feeds: Set<OpenFeed>,
): Subscription<MessageRecord> => {
  // Like the daemon's generator: nothing is read until the first next().
  let initial: MessageRecord[] | undefined;
  let index = 0;
  let later: Subscription<MessageRecord> | undefined;
  let ended = false;
  let failure: Error | undefined;
  const feed = {
    fail: (error: Error) => {
      failure = error;
      feeds.delete(feed);
      later?.fail(error);
    },
  };
  feeds.add(feed);
  return harden({
    next: async () => {
      if (failure) throw failure;
      if (ended) return harden({ done: true, value: undefined });
      if (initial === undefined) {
        later = topic.subscribe();
        initial = [...messages.values()];
      }
      while (index < initial.length) {
        const record = initial[index] as MessageRecord;
        index += 1;
        if (messages.get(record.number) === record) return harden({ done: false, value: record });
      }
      // Replayed: the snapshot must not keep the messages it held alive.
      if (initial.length > 0) {
        initial = [];
        index = 0;
      }
      return (later as Subscription<MessageRecord>).next();
    },
    end: () => {
      ended = true;
      feeds.delete(feed);
      later?.end();
    },
    fail: feed.fail,
  });
};
harden(makeMailboxFeed);
