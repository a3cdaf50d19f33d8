/**
 * Follows mail and, when following fails, follows again with a backoff
 * instead of stopping: the daemon may fail to load a mailbox for a while
 * (see mailbox-load-failure.ts), and an agent that stops silently leaves its
 * senders unanswered. An episode of failures ends when mail comes through
 * again; `onFailure` is told once per episode, so whoever it tells hears
 * once, not at every retry.
 */
import { followMail, type MailFollower } from './follow-mail.js';

export interface RetryDelays {
  /** The wait before the first retry; each next one doubles, up to maxMs. */
  firstMs: number;
  maxMs: number;
}

const DEFAULT_RETRY_DELAYS: RetryDelays = harden({ firstMs: 500, maxMs: 60_000 });

export const followMailWithRetry = (
  options: Parameters<typeof followMail>[0] & {
    /** The first failure of an episode, with the wait before the first retry. */
    onFailure: (error: unknown, retryInMs: number) => void | Promise<void>;
    /** Mail came through again after this many failed attempts. */
    onResume?: (failedAttempts: number) => void;
    delays?: RetryDelays;
  },
): MailFollower => {
  const { onFailure, onResume, delays = DEFAULT_RETRY_DELAYS } = options;
  let stopped = false;
  let current: MailFollower | undefined;
  let wake: (() => void) | undefined;
  let failures = 0;

  const resumed = () => {
    if (failures === 0) return;
    const failed = failures;
    failures = 0;
    onResume?.(failed);
  };
  const wait = (ms: number) =>
    new Promise<void>(resolve => {
      const timer = setTimeout(resolve, ms);
      wake = () => {
        clearTimeout(timer);
        resolve();
      };
    });

  const run = async (): Promise<void> => {
    for (;;) {
      current = followMail({
        ...options,
        onMail: message => {
          resumed();
          options.onMail(message);
        },
        onOwn: message => {
          resumed();
          options.onOwn(message);
        },
      });
      try {
        // Settles normally only when stopped (checked before each follower is made).
        // eslint-disable-next-line no-await-in-loop -- one mail follower at a time: the next starts after the previous ended
        await current.done;
        return;
      } catch (error) {
        if (stopped) return;
        failures += 1;
        const retryInMs = Math.min(delays.firstMs * 2 ** (failures - 1), delays.maxMs);
        // eslint-disable-next-line no-await-in-loop -- one mail follower at a time: the next starts after the previous ended
        if (failures === 1) await Promise.resolve(onFailure(error, retryInMs)).catch(() => {});
        if (stopped) return;
        // eslint-disable-next-line no-await-in-loop -- one mail follower at a time: the next starts after the previous ended
        await wait(retryInMs);
        if (stopped) return;
      }
    }
  };

  return {
    done: run(),
    stop() {
      stopped = true;
      current?.stop();
      wake?.();
    },
  };
};
harden(followMailWithRetry);
