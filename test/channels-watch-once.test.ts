/**
 * A joined channel's watch (src/channels/channel-watch.ts) hands each post on
 * once, in order: a post the stream shows again (as a daemon's stream that
 * subscribes before it lists shows one posted meanwhile) is dropped before it
 * can wait in the work queue or be shown twice in the channel's thread
 * (issue 46). The member is a double whose stream is the newest daemon's
 * exo-stream reader over the posts the test gives.
 */
import { expect, test } from 'vitest';
import { Far } from '@endo/far';
import { makeStreamReader } from '../sim/mail-host/stream-reader.js';
import { makeTopic } from '../sim/mail-host/topic.js';
import { watchChannel } from '../src/channels/channel-watch.js';
import type { ChannelPost } from '../src/channels/channel-thread.js';
import type { MemberHandle } from '../src/channels/channel-view.js';

const post = (number: number): ChannelPost =>
  harden({ number: BigInt(number), memberId: '1', strings: [`post ${number}`] });

test('a post shown again is handed on once; later posts still come, in order', async () => {
  const topic = makeTopic<ChannelPost>();
  const subscription = topic.subscribe([post(1), post(2), post(3)]);
  const member = Far('member', {
    followMessages: async () => makeStreamReader(subscription),
  }) as unknown as MemberHandle;
  const seen: bigint[] = [];
  const watch = watchChannel(
    member,
    'ch-1',
    each => seen.push(each.number),
    () => {},
  );
  // Posted while the stream listed the three: shown in the list and again as new.
  topic.publish(post(3));
  topic.publish(post(2));
  topic.publish(post(4));
  await expect.poll(() => seen).toEqual([1n, 2n, 3n, 4n]);
  watch.stop();
  await watch.done;
  expect(seen).toEqual([1n, 2n, 3n, 4n]);
});
