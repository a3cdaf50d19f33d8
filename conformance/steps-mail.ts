/**
 * Mail between the host and its guest: send with an attached value, list,
 * follow, adopt, reply, dismiss, and the errors of replying where one cannot.
 */
import { makeDaemonAdapter } from '../src/daemon/daemon-adapter.js';
import type { Recorder } from './recorder.js';
import {
  far,
  GUEST_NAME,
  lastNumber,
  listMessages,
  reduceMessage,
  type Parties,
} from './parties.js';

/** The first `count` items that following the guest's mail yields, then stops following. */
export const followFirst = async (parties: Parties, count: number) => {
  const adapter = await makeDaemonAdapter(parties.guest, () => {});
  const stream = await adapter.follow();
  const seen = [];
  for (let i = 0; i < count; i += 1) {
    const { value, done } = await stream.next();
    if (done === true) break;
    seen.push(reduceMessage(parties, value));
  }
  await stream.return(undefined).catch(() => {});
  return seen;
};
harden(followFirst);

/** Follows `who`'s mail from now on: what it replays at first is skipped. */
export const followFromNow = async (who: unknown) => {
  const adapter = await makeDaemonAdapter(who, () => {});
  const stream = await adapter.follow();
  const replayed = ((await far(who).listMessages!()) as unknown[]).length;
  for (let i = 0; i < replayed; i += 1) await stream.next();
  return {
    take: async (count: number) => {
      const seen: unknown[] = [];
      while (seen.length < count) seen.push((await stream.next()).value);
      return seen;
    },
    stop: () => stream.return(undefined).catch(() => {}),
  };
};
harden(followFromNow);

export const mailSteps = async (rec: Recorder, parties: Parties) => {
  const { host, guest } = parties;
  await rec.step('host stores a value', () => far(host).storeValue!(42n, 'conf-value'));
  await rec.step('host sends a package with the value', () =>
    far(host).send!(GUEST_NAME, ['hello ', ' there'], ['gift'], ['conf-value']),
  );
  await rec.step("host's own copy", async () => (await listMessages(parties, host)).at(-1));
  await rec.step("guest's messages", () => listMessages(parties, guest));
  await rec.step("following the guest's mail yields the message", () => followFirst(parties, 1));
  const number = await lastNumber(guest);
  await rec.step('guest adopts the value', () => far(guest).adopt!(number, 'gift', 'adopted-gift'));
  await rec.step('guest looks up the adopted value', () => far(guest).lookup!('adopted-gift'));
  await rec.step('guest adopts an edge name the message lacks', () =>
    far(guest).adopt!(number, 'nothing', 'adopted-nothing'),
  );
  await rec.step('guest replies', () => far(guest).reply!(number, ['pong'], [], []));
  await rec.step("host's messages after the reply", () => listMessages(parties, host));
  await rec.step("guest's messages after the reply", () => listMessages(parties, guest));
  await rec.step('guest replies with a JS number', () => far(guest).reply!(1, ['x'], [], []));
  await rec.step('guest replies to a number it never had', () =>
    far(guest).reply!(999n, ['x'], [], []),
  );
  await rec.step('guest dismisses the message', () => far(guest).dismiss!(number));
  await rec.step("guest's messages after dismissing", () => listMessages(parties, guest));
  await rec.step('guest replies to the dismissed message', () =>
    far(guest).reply!(number, ['late'], [], []),
  );
  await rec.step('guest dismisses it again', () => far(guest).dismiss!(number));
  await rec.step('guest sends to the host', () =>
    far(guest).send!(parties.names.host, ['from the guest'], [], []),
  );
  await rec.step("host's last message", async () => (await listMessages(parties, host)).at(-1));
  await rec.step('guest sends to a name it lacks', () => far(guest).send!('nobody', ['x'], [], []));
  await rec.step('guest sends with mismatched strings and names', () =>
    far(guest).send!(parties.names.host, ['a'], ['b'], ['adopted-gift']),
  );
};
harden(mailSteps);
