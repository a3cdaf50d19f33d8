/**
 * followMessages' feed over one mailbox: every undismissed message, then each
 * new one; it can be ended, or failed with an error (a broken connection, a
 * fault injected by the tests). As both daemons do (their mail.js
 * `currentAndSubsequentMessages`), it subscribes to new messages first and
 * then walks the mailbox's live list: a message delivered while the backlog
 * is still being read is given twice, once in the list and once as new (seen
 * at f0a46042a: 60 messages sent while a follower read a backlog of 412 each
 * came twice), and one dismissed before it is reached is not given.
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
  let initial: Iterator<MessageRecord> | undefined;
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
        initial = messages.values();
      }
      const listed = initial.next();
      if (listed.done !== true) return harden({ done: false, value: listed.value });
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
