/**
 * Rejections that nobody waits for any more are handled where they arise
 * (issue 45: `npm test` printed SES_UNHANDLED_REJECTION for both): a tool
 * call's start that its stopped turn never awaits (src/lifecycle/run-with-timeout.ts),
 * and a channel's next message that fails after its reader stopped reading
 * (src/daemon/stream-reader-client.ts: a disabled membership), and the close of
 * a stream that had failed (a trial's `npm test` printed it at a test's end).
 */
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { Far } from '@endo/far';
import { runWithTimeout } from '../src/lifecycle/run-with-timeout.js';
import { readStream } from '../src/daemon/stream-reader-client.js';

let unhandled: unknown[] = [];
const note = (reason: unknown) => void unhandled.push(reason);
beforeEach(() => {
  unhandled = [];
  process.on('unhandledRejection', note);
});
afterEach(() => {
  process.off('unhandledRejection', note);
});

/** Past the point where Node tells of a rejection no one handled (after the microtasks). */
const pastRejectionCheck = () =>
  new Promise<void>(resolve => setImmediate(() => setImmediate(resolve)));

describe('a rejection nobody waits for is handled', () => {
  test('runWithTimeout whose signal was already aborted: the promise it was given rejects later', async () => {
    const stop = new AbortController();
    stop.abort('its turn was stopped');
    let fail: (reason: unknown) => void = () => {};
    const started = new Promise((_resolve, reject) => {
      fail = reject;
    });
    await expect(
      runWithTimeout(started, 60_000, 'The tool call probe', stop.signal),
    ).rejects.toThrow('The tool call probe was cancelled');
    fail(Error('its turn was stopped'));
    await pastRejectionCheck();
    expect(unhandled).toEqual([]);
  });

  test("a stream's next node that fails after its reader stopped reading", async () => {
    let failNext: (reason: unknown) => void = () => {};
    const next = new Promise((_resolve, reject) => {
      failNext = reject;
    });
    const reader = Far('Reader', {
      stream: () => harden({ value: 'first', promise: next }),
    });
    const stream = readStream(reader);
    expect(await stream.next()).toEqual({ done: false, value: 'first' });
    // The reader reads no more (its channel is left); then the channel refuses the member.
    await stream.return();
    failNext(Error('Channel member "lal" has been disabled'));
    await pastRejectionCheck();
    expect(unhandled).toEqual([]);
  });

  test('the same node failing while a read waits still fails that read', async () => {
    let failNext: (reason: unknown) => void = () => {};
    const next = new Promise((_resolve, reject) => {
      failNext = reject;
    });
    const reader = Far('Reader', {
      stream: () => harden({ value: 'first', promise: next }),
    });
    const stream = readStream(reader);
    await stream.next();
    const waiting = stream.next();
    failNext(Error('Channel member "lal" has been disabled'));
    await expect(waiting).rejects.toThrow('has been disabled');
  });

  test('a stream that failed, closed afterwards (its watch stopped as its agent stops), is done, not a second failure', async () => {
    const reader = Far('Reader', {
      stream: () =>
        harden({
          value: 'first',
          promise: Promise.reject(Error('Channel member "lal" has been disabled')),
        }),
    });
    const stream = readStream(reader);
    await stream.next();
    await expect(stream.next()).rejects.toThrow('has been disabled');
    // As src/channels/channel-watch.ts closes it: nobody awaits the close.
    const closing = stream.return();
    await pastRejectionCheck();
    expect(unhandled).toEqual([]);
    expect(await closing).toEqual({ done: true, value: undefined });
  });
});
