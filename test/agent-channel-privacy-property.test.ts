/**
 * The property of behaviour 11.4, for every sequence: random sequences of
 * the HOST's private words and of members' posts in two channels the agent
 * joined (addressed to it or not), played against a model that repeats in
 * its answer everything its request shows. Whatever the sequence: no
 * channel's turn (its answer, its routing request) shows a word the HOST
 * said in private, and no channel hears another channel's words. Bounded (a
 * few runs of a few steps each) for a loaded two-core machine; the seed is
 * in the failure.
 */
import { describe, expect, test } from 'vitest';
import fc from 'fast-check';
import { E } from '@endo/far';
import {
  callTool,
  makeScriptedProvider,
  say,
  type RecordedRequest,
  type Step,
} from './support/scripted-provider.js';
import { latestMessageNumber, type AgentRun } from './support/agent-harness.js';
import { useAgents } from './support/use-agents.js';
import { isRouting, textOf, untilPost, type Post } from './support/channel-setting.js';

const { start } = useAgents();

type Far = any;
const CHANNELS = ['general', 'other'] as const;
type Channel = (typeof CHANNELS)[number];

const isChannelTurn = (request: RecordedRequest) =>
  /member of the channel "/.test(request.messages[0]?.content ?? '');

/** The leakiest model: a channel answer repeats its whole request; a routing request says no; the HOST is answered "ok" with the message's token. */
const leaky: Step = request => {
  if (isRouting(request)) return say('no');
  if (isChannelTurn(request)) return say(`I see: ${JSON.stringify(request.messages)}`);
  const token = /\[k\d+\]/.exec(request.messages.at(-1)?.content ?? '')?.[0] ?? '';
  return callTool('reply', {
    messageNumber: latestMessageNumber(request),
    strings: [`ok ${token}`],
  });
};

type Action =
  { kind: 'host-secret'; n: number } | { kind: 'post'; channel: Channel; mention: boolean };

const action: fc.Arbitrary<Action> = fc.oneof(
  fc.record({ kind: fc.constant('host-secret' as const), n: fc.nat(999) }),
  fc.record({
    kind: fc.constant('post' as const),
    channel: fc.constantFrom(...CHANNELS),
    mention: fc.boolean(),
  }),
);

interface Room {
  admin: Far;
  bob: Far;
  /** What members said there. */
  words: string[];
}

/** Bob posts; addressed to the agent, until its answer is in the thread; else until the routing request is made. */
const post = async (run: AgentRun, room: Room, words: string, mention: boolean) => {
  const requests = run.provider.requests.length;
  await E(room.bob).post([mention ? `@lal ${words}` : words], [], []);
  const [last] = ((await E(room.admin).listMessages()) as Post[]).slice(-1);
  if (mention)
    await untilPost(
      room.admin,
      one => one.replyTo === String(last!.number) && one.replyType === undefined,
    );
  else await expect.poll(() => run.provider.requests.length).toBe(requests + 1);
  return last!.number;
};

const setUp = async () => {
  const provider = makeScriptedProvider(Array.from({ length: 64 }, () => leaky));
  const run = await start({ profile: 'newest', provider });
  const rooms = {} as Record<Channel, Room>;
  for (const channel of CHANNELS) {
    const admin = await E(run.host.host as Far).makeChannel(channel, 'Alice');
    const [invitation] = (await E(admin).createInvitation('bob')) as [Far];
    rooms[channel] = { admin, bob: await E(invitation).join('Bob'), words: [] };
    // Joined on a first mention, as the chat tells it.
    await E(rooms[channel].bob).post([`hello @lal from ${channel}`], [], []);
    rooms[channel].words.push(`from ${channel}`);
    await run.host.mentionInChannel(channel, 'lal');
    await untilPost(admin, one => one.replyTo === '0');
  }
  return { run, rooms };
};

describe('a channel turn, whatever the sequence', () => {
  test("never shows the HOST's private words, nor another channel's", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(action, { minLength: 2, maxLength: 6 }), async actions => {
        const { run, rooms } = await setUp();
        const secrets: string[] = [];
        try {
          for (const [index, each] of actions.entries()) {
            if (each.kind === 'host-secret') {
              const secret = `private${each.n}x${index}`;
              secrets.push(secret);
              await run.send(`keep this to yourself: ${secret} [k${index}]`);
              await run.reply(`ok [k${index}]`);
            } else {
              const room = rooms[each.channel];
              const words = `word${each.channel}${index}`;
              room.words.push(words);
              await post(run, room, words, each.mention);
            }
          }
          const channelRequests = run.provider.requests.filter(
            request => isChannelTurn(request) || isRouting(request),
          );
          for (const request of channelRequests) {
            const shown = JSON.stringify(request.messages);
            for (const secret of secrets) expect(shown).not.toContain(secret);
          }
          for (const channel of CHANNELS) {
            const heard = ((await E(rooms[channel].admin).listMessages()) as Post[])
              .map(textOf)
              .join('\n');
            for (const secret of secrets) expect(heard).not.toContain(secret);
            const elsewhere = CHANNELS.filter(one => one !== channel);
            for (const other of elsewhere)
              for (const words of rooms[other].words) expect(heard).not.toContain(words);
          }
        } finally {
          await run.cancel();
        }
      }),
      { numRuns: 6, endOnFailure: true },
    );
  }, 180_000);
});
