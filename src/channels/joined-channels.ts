/**
 * The agent in the newest daemon's channels (docs/behaviour.md 10): a
 * mention notification makes it adopt the channel (under its own
 * `agent-channels/`), join by the invitation's name and answer in the
 * thread as its own member; it then follows every channel it joined
 * (after a restart too), answers each @mention there once, and otherwise
 * speaks at the channel's level, asking the routing model first (never at
 * the observer level). The channel object handed over is used to join,
 * nothing else. A channel's turn is built from that channel's messages and
 * holds only the posting to it (./channel-answer.ts). The HOST's hand:
 * `control` (list, leave, level).
 */
import { E } from '@endo/far';
import type { Provider } from '../../providers/types.js';
import { describeError } from '../../providers/describe-error.js';
import type { Clock } from '../lifecycle/clock.js';
import type { Log } from '../log/log.js';
import { answerInChannel, postsOf, type MemberHandle } from './channel-answer.js';
import { isLevel, LEVEL_MEANING, levelAskedFor, type Level } from './channel-levels.js';
import { CHANNELS_DIRECTORY, makeChannelRoster, type JoinedChannel } from './channel-roster.js';
import { foldEdits, postText, type ChannelPost } from './channel-thread.js';
import { watchChannel, type ChannelWatch } from './channel-watch.js';
import { shouldSpeak } from './route-message.js';
import type { MentionNotice } from './mention-notice.js';

/** One message of a joined channel, for the serving loop (in the channel's own lane). */
export interface ChannelWork {
  kind: 'channel';
  key: string;
  post: ChannelPost;
}

interface Live {
  member: MemberHandle;
  ownMemberId: string;
  name: string;
  watch: ChannelWatch;
}

interface ChannelPowers {
  has(...path: string[]): Promise<boolean>;
  lookup(path: string[]): Promise<unknown>;
  adopt(number: bigint, edgeName: string, petName: string[]): Promise<void>;
  makeDirectory(name: string): Promise<unknown>;
  remove(...path: string[]): Promise<void>;
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

export const makeJoinedChannels = (setup: {
  powers: unknown;
  log: Log;
  clock: Clock;
  signal: AbortSignal;
  /** The persona's name ("Lal", "Fae"): @lal addresses it, whatever it joined as. */
  agentName: string;
  /** The main model, or none (then nothing is answered). */
  main: () => Provider | undefined;
  /** The routing model (LAL_ROUTER_MODEL …), the main one when none is named. */
  router: () => Provider | undefined;
  push: (work: ChannelWork) => void;
}) => {
  const { log, clock, signal } = setup;
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
    const [ownMemberId, name] = await Promise.all([
      E(member).getMemberId(),
      E(channel as { getProposedName(): string }).getProposedName(),
    ]);
    if (entry.lastSeen === '') {
      // Joined just now: what was said before is context, not work.
      const last = (await postsOf(member)).at(-1);
      if (last !== undefined) roster.seen(entry, String(last.number));
    }
    const watch = watchChannel(
      member,
      entry.key,
      post => setup.push({ kind: 'channel', key: entry.key, post }),
      log,
    );
    const joined: Live = { member, ownMemberId, name, watch };
    live.set(entry.key, joined);
    return joined;
  };

  /** Says why a post failed, once, and drops it: no retry (heat, a disabled membership). */
  const postFailed = (entry: JoinedChannel, error: unknown) => {
    const why = describeError(error);
    if (/has been disabled|is temporarily banned/.test(why)) {
      entry.disabled = true;
      live.get(entry.key)?.watch.stop();
      live.delete(entry.key);
      log(`channel ${entry.key}: ${why}; no longer followed (the HOST may leave it)`);
    } else if (/Rate limit lockout/.test(why)) {
      log(`channel ${entry.key}: ${why}; this answer is dropped, not retried`);
    } else log(`channel ${entry.key}: could not answer: ${why}`);
  };

  const answer = async (entry: JoinedChannel, joined: Live, number: bigint) => {
    const provider = setup.main();
    if (provider === undefined) {
      log(`channel ${entry.key}: no model to answer #${number} with`);
      return;
    }
    let editFailed: unknown;
    try {
      await answerInChannel({
        member: joined.member,
        provider,
        clock,
        agentName: setup.agentName,
        channelName: joined.name,
        answering: number,
        signal,
        onEditError: error => {
          editFailed = error;
        },
      });
    } catch (error) {
      postFailed(entry, editFailed ?? error);
    }
  };

  /** A post addressed to the agent: a level asked for is set and acknowledged; else it is answered. */
  const serveMention = async (entry: JoinedChannel, joined: Live, post: ChannelPost) => {
    const level = levelAskedFor(postText(post));
    if (level === undefined) {
      await answer(entry, joined, post.number);
      return;
    }
    entry.level = level;
    log(`channel ${entry.key}: level ${level}, asked in #${post.number}`);
    await E(joined.member)
      .post([`Understood: here I now speak ${LEVEL_MEANING[level]}.`], [], [], String(post.number))
      .catch((error: unknown) => postFailed(entry, error));
  };

  const route = async (entry: JoinedChannel, joined: Live, post: ChannelPost) => {
    const level = entry.level;
    const router = setup.router();
    // Only when mentioned: no model is asked at all.
    if (level === 'observer' || router === undefined) return;
    const posts = foldEdits(await postsOf(joined.member)).filter(
      shown => shown.post.number <= post.number,
    );
    const lines = posts.map(
      ({ post: one, text }) =>
        `${one.memberId === joined.ownMemberId ? setup.agentName : `member ${one.memberId}`}: ${text}`,
    );
    const speak = await shouldSpeak({
      provider: router,
      agentName: setup.agentName,
      level,
      lines,
      signal,
    }).catch((error: unknown) => {
      log(
        `channel ${entry.key}: the routing model failed (${describeError(error)}); not answering #${post.number}`,
      );
      return false;
    });
    if (speak && roster.claim(entry, String(post.number))) await answer(entry, joined, post.number);
  };

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
          level: 'normal',
          lastSeen: '',
          answered: [],
        };
        roster.add(entry);
        log(`channel ${key}: joining as ${JSON.stringify(notice.join)} on a mention`);
      }
      delete entry.disabled;
      const joined = live.get(entry.key) ?? (await connect(entry));
      if (roster.claim(entry, notice.replyTo)) {
        const post = (await postsOf(joined.member)).find(
          one => String(one.number) === notice.replyTo,
        );
        if (post === undefined) await answer(entry, joined, BigInt(notice.replyTo));
        else await serveMention(entry, joined, post);
      }
      await roster.save();
    },
    /** One message the watch saw. */
    serve: async (work: ChannelWork): Promise<void> => {
      const entry = roster.get(work.key);
      const joined = live.get(work.key);
      const { post } = work;
      if (entry === undefined || joined === undefined || !roster.isNew(entry, String(post.number)))
        return;
      roster.seen(entry, String(post.number));
      if (post.memberId !== joined.ownMemberId && post.replyType !== 'edit') {
        if (addressed(entry, postText(post))) {
          if (roster.claim(entry, String(post.number))) await serveMention(entry, joined, post);
        } else await route(entry, joined, post);
      }
      await roster.save();
    },
    /** The HOST's hand: list (the default), leave <channel>, level <channel> <level>. */
    control: async (action = 'list', key?: string, level?: string): Promise<string> => {
      if (action === 'list') return describe().join('\n') || 'No channel joined.';
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
    },
    describe,
    stop: () => {
      for (const joined of live.values()) joined.watch.stop();
      live.clear();
    },
  };

  function describe(): string[] {
    return roster.all().map(entry => {
      const name = live.get(entry.key)?.name;
      const state =
        entry.disabled === true
          ? ', membership disabled'
          : live.has(entry.key)
            ? ''
            : ', not followed';
      return `${entry.key}${name === undefined ? '' : ` "${name}"`}: ${entry.level} (${LEVEL_MEANING[entry.level as Level]})${state}`;
    });
  }
};
harden(makeJoinedChannels);
export type JoinedChannels = ReturnType<typeof makeJoinedChannels>;
