/**
 * The agent in the newest daemon's channels (docs/behaviour.md 11): a
 * mention notification makes it adopt the channel (under its own
 * `agent-channels/`), join by the invitation's name and answer in the
 * thread as its own member; it then follows every channel it joined
 * (after a restart too), answers each @mention there once, and otherwise
 * speaks at the channel's level, asking the routing model first (never at
 * the observer level). The channel object handed over is used to join,
 * nothing else. A channel's turn is built from that channel's messages and
 * holds the channel's facet: its one effect is its post there
 * (./channel-speech.ts, ./channel-answer.ts). The HOST's hand:
 * `control` (list, leave, level).
 */
import { CHANNELS_DIRECTORY } from '../daemon/own-names.js';
import { E } from '@endo/far';
import { describeError } from '../../providers/describe-error.js';
import { makeChannelView, postsOf, type MemberHandle } from './channel-view.js';
import { makeChannelSpeech, type Live, type SpeechSetup } from './channel-speech.js';
import { isLevel, LEVEL_MEANING } from './channel-levels.js';
import { makeChannelRoster, type JoinedChannel } from './channel-roster.js';
import { channelName, postText, type ChannelPost, type ChannelWork } from './channel-thread.js';
import { watchChannel } from './channel-watch.js';
import type { MentionNotice } from './mention-notice.js';

interface ChannelPowers {
  has(...path: string[]): Promise<boolean>;
  lookup(path: string[]): Promise<unknown>;
  adopt(number: bigint, edgeName: string, petName: string[]): Promise<void>;
  makeDirectory(name: string): Promise<unknown>;
  remove(...path: string[]): Promise<void>;
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

type Roster = ReturnType<typeof makeChannelRoster>;

/**
 * The post a notification is about. The chat names the last message of the channel when the
 * mention was not in a thread, read after its post: by then it may be the agent's own answer
 * (an acknowledgement is posted at once). The agent's own posts are never a mention: the
 * notification is about the post they answer, found up the thread (undefined if none).
 */
const mentionNamed = (
  posts: readonly ChannelPost[],
  number: bigint,
  ownMemberId: string,
): ChannelPost | undefined => {
  let post = posts.find(one => one.number === number);
  while (post?.memberId === ownMemberId) {
    const parent = post.replyTo;
    post = parent === undefined ? undefined : posts.find(one => String(one.number) === parent);
  }
  return post;
};

/** help()'s lines: each channel joined, its name in the channel, its level. */
const describeJoined = (roster: Roster, live: ReadonlyMap<string, Live>): string[] =>
  roster.all().map(entry => {
    const name = live.get(entry.key)?.name;
    const state =
      entry.disabled === true
        ? ', membership disabled'
        : live.has(entry.key)
          ? ''
          : ', not followed';
    return `${entry.key}${name === undefined ? '' : ` "${name}"`}: ${entry.level} (${LEVEL_MEANING[entry.level]})${state}`;
  });

/** The HOST's hand: list (the default), leave <channel>, level <channel> <level>. */
const makeControl =
  (roster: Roster, live: Map<string, Live>, powers: { remove(...path: string[]): Promise<void> }) =>
  async (action = 'list', key?: string, level?: string): Promise<string> => {
    if (action === 'list') return describeJoined(roster, live).join('\n') || 'No channel joined.';
    const entry = key === undefined ? undefined : roster.get(key);
    if (entry === undefined)
      throw new Error(
        `no joined channel ${JSON.stringify(key ?? '')}; joined: ${
          roster
            .all()
            .map(one => one.key)
            .join(', ') || 'none'
        }`,
      );
    if (action === 'leave') {
      live.get(entry.key)?.watch.stop();
      live.delete(entry.key);
      roster.remove(entry.key);
      await powers.remove(CHANNELS_DIRECTORY, entry.key);
      await roster.save();
      return `Left ${entry.key}.`;
    }
    if (action === 'level') {
      if (!isLevel(level)) throw new Error(`a level is one of active, normal, quiet, observer`);
      entry.level = level;
      await roster.save();
      return `${entry.key}: level ${level}.`;
    }
    throw new Error(`channels(action): list, leave or level, not ${JSON.stringify(action)}`);
  };

export const makeJoinedChannels = (
  setup: SpeechSetup & { powers: unknown; push: (work: ChannelWork) => void },
) => {
  const { log } = setup;
  const powers = E(setup.powers as ChannelPowers);
  const roster = makeChannelRoster(setup.powers, log);
  const live = new Map<string, Live>();

  const addressed = (entry: JoinedChannel, text: string) =>
    new RegExp(`@(?:${[setup.agentName, entry.join].map(escape).join('|')})(?![\\w-])`, 'i').test(
      text,
    );

  const connect = async (entry: JoinedChannel): Promise<Live> => {
    const channel = await powers.lookup([CHANNELS_DIRECTORY, entry.key]);
    const member = (await E(channel as { join(name: string): Promise<unknown> }).join(
      entry.join,
    )) as MemberHandle;
    const ownMemberId = await E(member).getMemberId();
    const name = channelName(entry.name ?? entry.key, entry.key);
    if (entry.lastSeen === '') {
      // Joined just now: what was said before is context, not work.
      const last = (await postsOf(member)).at(-1);
      if (last !== undefined) roster.seen(entry, String(last.number));
    }
    const view = makeChannelView(member);
    // Every post is seen (a turn shows the thread, edits folded); only others' new posts are
    // work: the agent's own and edits never hold a member's next message behind the serving
    // loop's wait for the mail stream. A post seen before (the stream starts with every post so
    // far) is dropped here rather than queued to be skipped: each piece of work costs a memory
    // write (issue 46); the watch hands on each post once.
    const watch = watchChannel(
      member,
      entry.key,
      post => {
        view.see(post);
        if (post.memberId === ownMemberId || post.replyType === 'edit') return;
        if (!roster.isNew(entry, String(post.number))) return;
        setup.push({ kind: 'channel', key: entry.key, post });
      },
      log,
    );
    const joined: Live = { member, ownMemberId, name, watch, view };
    live.set(entry.key, joined);
    // Mentions that waited when the agent last stopped wait again, in order (a thread told is not told again).
    for (const number of entry.waiting ?? []) {
      // eslint-disable-next-line no-await-in-loop -- a few at most, each read once
      const post = (await view.postsUpTo(BigInt(number))).find(
        one => String(one.number) === number,
      );
      if (post === undefined) roster.waits(entry, number, false);
      else setup.push({ kind: 'channel', key: entry.key, post, held: true });
    }
    return joined;
  };

  const { serveMention, route, answerWithin } = makeChannelSpeech({
    ...setup,
    claim: (entry, number) => roster.claim(entry, number),
    waits: (entry, number, state) => roster.waits(entry, number, state),
    told: (entry, number) => roster.told(entry, number),
    leave: key => {
      live.get(key)?.watch.stop();
      live.delete(key);
    },
  });

  return {
    /** Follows again every channel joined before (after a restart); one that cannot be joined is logged. */
    resume: async (): Promise<void> => {
      await roster.load();
      for (const entry of roster.all()) {
        if (entry.disabled === true) continue;
        // eslint-disable-next-line no-await-in-loop -- a few channels, joined in order
        await connect(entry).catch((error: unknown) =>
          log(`channel ${entry.key}: could not join again: ${describeError(error)}`),
        );
      }
    },
    /** A mention notification from the inbox: adopt, join, answer N in its thread. */
    onMention: async (notice: MentionNotice, number: bigint): Promise<void> => {
      let entry = roster.byChannelId(notice.channelId);
      if (entry === undefined) {
        const key = roster.freshKey();
        if (!(await powers.has(CHANNELS_DIRECTORY))) await powers.makeDirectory(CHANNELS_DIRECTORY);
        await powers.adopt(number, notice.edge, [CHANNELS_DIRECTORY, key]);
        entry = {
          key,
          channelId: notice.channelId,
          join: notice.join,
          name: notice.edge,
          level: 'normal',
          lastSeen: '',
          answered: [],
        };
        roster.add(entry);
        log(`channel ${key}: joining as ${JSON.stringify(notice.join)} on a mention`);
      }
      delete entry.disabled;
      const joined = live.get(entry.key) ?? (await connect(entry));
      const named = BigInt(notice.replyTo);
      const post = mentionNamed(await joined.view.postsUpTo(named), named, joined.ownMemberId);
      if (post === undefined) log(`channel ${entry.key}: no message #${named} there to answer`);
      else if (roster.claim(entry, String(post.number))) await serveMention(entry, joined, post);
      await roster.save();
    },
    /** One message the watch saw. */
    serve: async (work: ChannelWork): Promise<void> => {
      const entry = roster.get(work.key);
      const joined = live.get(work.key);
      const { post } = work;
      if (entry === undefined || joined === undefined) return;
      // A mention that waited: claimed before; answered once it may be (its thread told once why).
      if (work.held === true) {
        await answerWithin(entry, joined, post);
        await roster.save();
        return;
      }
      if (!roster.isNew(entry, String(post.number))) return;
      roster.seen(entry, String(post.number));
      if (addressed(entry, postText(post))) {
        if (roster.claim(entry, String(post.number))) await serveMention(entry, joined, post);
      } else await route(entry, joined, post);
      await roster.save();
    },
    control: makeControl(roster, live, powers),
    describe: () => describeJoined(roster, live),
    stop: () => {
      for (const joined of live.values()) joined.watch.stop();
      live.clear();
    },
  };
};
harden(makeJoinedChannels);
export type JoinedChannels = ReturnType<typeof makeJoinedChannels>;
