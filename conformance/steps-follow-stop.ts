/**
 * Stopping a follow of the mail while its `next` waits for a message: at
 * f0a46042a the iterator is an async generator, so `return` queues behind
 * the waiting `next` and settles only once a message comes; the newest
 * daemon's exo-stream reader closes at once. Whoever stops following must
 * not wait on `return` (src/mail/follow-mail.ts, bench/real-daemon/ping-timer.ts).
 */
import { makeDaemonAdapter } from '../src/daemon/daemon-adapter.js';
import type { Recorder } from './recorder.js';
import { far, GUEST_NAME, lastNumber, type Parties } from './parties.js';

// Long enough for a real daemon's round trip to come back; proving that something does not
// happen takes a wait.
const SETTLE_MS = 300;

const settledWithin = async (promise: Promise<unknown>, ms: number): Promise<boolean> => {
  let settled = false;
  void promise.then(
    () => {
      settled = true;
    },
    () => {
      settled = true;
    },
  );
  await new Promise(resolve => {
    setTimeout(resolve, ms);
  });
  return settled;
};

export const followStopSteps = async (rec: Recorder, parties: Parties) => {
  const { host, guest } = parties;
  await rec.step("stopping a follow of the guest's mail while its next waits", async () => {
    const adapter = await makeDaemonAdapter(guest, () => {});
    const stream = await adapter.follow();
    const replayed = ((await far(guest).listMessages!()) as unknown[]).length;
    for (let i = 0; i < replayed; i += 1) await stream.next();
    const waiting = stream.next();
    const returning = Promise.resolve(stream.return(undefined));
    const returnAlone = await settledWithin(returning, SETTLE_MS);
    await far(host).send!(GUEST_NAME, ['wake'], [], []);
    const next = await waiting;
    const returnAfterMessage = await settledWithin(returning, SETTLE_MS);
    await far(guest).dismiss!(await lastNumber(guest));
    return {
      returnSettledBeforeAMessage: returnAlone,
      returnSettledOnceAMessageCame: returnAfterMessage,
      waitingNextGot: next.done === true ? 'the end' : 'the message',
    };
  });
};
harden(followStopSteps);
