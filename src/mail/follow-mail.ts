/**
 * Follows the guest's mail through the daemon's remote iterator: the
 * agent's own messages (the copies of what it sent) go one way, everyone
 * else's the other, anything that is not a message record is logged and
 * skipped. `stop()` calls the iterator's `return()`.
 */
import { E } from '@endo/far';
import type { PowersRef } from '../guest-powers.js';
import type { Log } from '../log.js';
import type { MessageRecord } from './message-record.js';

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
}): MailFollower => {
  const { powers, selfId, onOwn, onMail, log } = options;
  let iterator: AsyncIterator<unknown> | undefined;
  let stopped = false;
  const close = () => {
    if (iterator !== undefined) Promise.resolve(E(iterator).return!(undefined)).catch(() => {});
  };
  const follow = async (): Promise<void> => {
    iterator = (await E(powers).followMessages()) as AsyncIterator<unknown>;
    if (stopped) {
      close();
      return;
    }
    for (;;) {
      const step = (await E(iterator).next()) as IteratorResult<unknown>;
      if (step.done || stopped) return;
      const message = step.value as MessageRecord;
      if (message === null || typeof message !== 'object') {
        log('skipped a malformed message');
      } else if (selfId !== undefined && message.from === selfId) {
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
