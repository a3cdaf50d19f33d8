/**
 * Follows the guest's mail through the daemon's stream (the generation's
 * adapter opens it): the agent's own messages (the copies of what it sent)
 * go one way, everyone else's the other, anything that is not a message
 * record is logged and skipped. A stream the daemon ends is a failure (the
 * agent would hear no more mail): the caller follows again.
 * `stop()` calls the stream's `return()`.
 */
import type { Log } from '../log/log.js';
import type { MessageRecord } from './message-record.js';
import type { MailStream } from '../daemon/daemon-adapter.js';

export interface MailFollower {
  /** Settles when stopped; rejects when following failed or the daemon ended the stream. */
  done: Promise<void>;
  stop(): void;
}

export const followMail = (options: {
  onOwn: (message: MessageRecord) => void;
  onMail: (message: MessageRecord) => void;
  log: Log;
  /** Opens the daemon's mail stream (the generation's adapter: daemon/daemon-adapter.ts). */
  open: () => Promise<MailStream>;
  /** Whether a message is the agent's own. */
  isOwn: (message: MessageRecord) => boolean;
}): MailFollower => {
  const { onOwn, onMail, log, open, isOwn } = options;
  let iterator: MailStream | undefined;
  let stopped = false;
  const close = () => {
    if (iterator !== undefined) Promise.resolve(iterator.return(undefined)).catch(() => {});
  };
  const follow = async (): Promise<void> => {
    iterator = await open();
    if (stopped) {
      close();
      return;
    }
    for (;;) {
      // eslint-disable-next-line no-await-in-loop -- the daemon's iterator gives one message per step, in order
      const step = await iterator.next();
      if (stopped) return;
      if (step.done) throw Error('the daemon ended the mail stream');
      const message = step.value as MessageRecord;
      if (message === null || typeof message !== 'object') {
        log('skipped a malformed message');
      } else if (isOwn(message)) {
        onOwn(message);
      } else {
        onMail(message);
      }
    }
  };
  return {
    done: follow(),
    stop() {
      stopped = true;
      close();
    },
  };
};
harden(followMail);
