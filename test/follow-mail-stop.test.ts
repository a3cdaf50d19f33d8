/**
 * Stopping mail that is being followed again after a failure
 * (mail/follow-mail-with-retry.ts): a stop while the failure is being
 * reported, or while the next attempt waits, ends following at once; no
 * stream is opened after it.
 */
import { expect, test } from 'vitest';
import { followMailWithRetry } from '../src/mail/follow-mail-with-retry.js';
import type { MailStream } from '../src/daemon/daemon-adapter.js';

/** A daemon whose mail stream never opens: counts the attempts. */
const failingOpen = () => {
  let opened = 0;
  return {
    open: async (): Promise<MailStream> => {
      opened += 1;
      throw Error('Unknown message formula type');
    },
    opened: () => opened,
  };
};

const ignore = () => {};

test('a stop while the failure is being reported ends following without another attempt', async () => {
  const daemon = failingOpen();
  let reported: () => void = ignore;
  let reporting: () => void = ignore;
  const told = new Promise<void>(resolve => {
    reporting = resolve;
  });
  const follower = followMailWithRetry({
    open: daemon.open,
    isOwn: () => false,
    onOwn: ignore,
    onMail: ignore,
    log: ignore,
    // A wait long enough that only the stop can end this test.
    delays: { firstMs: 3_600_000, maxMs: 3_600_000 },
    onFailure: () =>
      new Promise<void>(resolve => {
        reported = resolve;
        reporting();
      }),
  });
  await told;
  follower.stop();
  reported();
  await follower.done;
  expect(daemon.opened()).toBe(1);
});

test('a stop while the next attempt waits ends following without another attempt', async () => {
  const daemon = failingOpen();
  const failures: number[] = [];
  let failed: () => void = ignore;
  const first = new Promise<void>(resolve => {
    failed = resolve;
  });
  const follower = followMailWithRetry({
    open: daemon.open,
    isOwn: () => false,
    onOwn: ignore,
    onMail: ignore,
    log: ignore,
    delays: { firstMs: 3_600_000, maxMs: 3_600_000 },
    onFailure: (_error, retryInMs) => {
      failures.push(retryInMs);
      failed();
    },
  });
  await first;
  // Every promise reaction runs before the next macrotask: by then the attempt waits on its timer.
  await new Promise(resolve => setImmediate(resolve));
  follower.stop();
  await follower.done;
  expect(failures).toEqual([3_600_000]);
  expect(daemon.opened()).toBe(1);
});
