/**
 * Follows the guest's mail through the daemon's remote iterator: the
 * agent's own messages (the copies of what it sent) go one way, everyone
 * else's the other, anything that is not a message record is logged and
 * skipped. `stop()` calls the iterator's `return()`.
 */
import { E } from '@endo/far';
import type { PowersRef } from '../daemon/guest-powers.js';
import type { Log } from '../log/log.js';
import type { MessageRecord } from './message-record.js';
import type { MailStream } from '../daemon/daemon-adapter.js';

export interface MailFollower {
  /** Settles when following ends: stopped, the iterator finished, or failed (rejects). */
  done: Promise<void>;
  stop(): void;
}

export const followMail = (options: {
  powers: PowersRef;
  selfId: string | undefined;
  onOwn: (message: MessageRecord) => void;
  onMail: (message: MessageRecord) => void;
  log: Log;
  /** Opens the daemon's mail stream (the generation's adapter); the f0a46042a remote iterator by default. */
  open?: () => Promise<MailStream>;
  /** Whether a message is the agent's own; `from === selfId` by default. */
  isOwn?: (message: MessageRecord) => boolean;
}): MailFollower => {
  const { powers, selfId, onOwn, onMail, log } = options;
  const isOwn =
    options.isOwn ?? ((message: MessageRecord) => selfId !== undefined && message.from === selfId);
  const open =
    options.open ??
    (async (): Promise<MailStream> => {
      const remote = await E(powers).followMessages();
      return {
        next: () => E(remote).next(),
        return: (value?: unknown) => E(remote).return(value) as Promise<unknown>,
      };
    });
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
      if (step.done || stopped) return;
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
