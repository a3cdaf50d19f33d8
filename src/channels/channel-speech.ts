/**
 * How the agent speaks in one joined channel (docs/behaviour.md 11): a
 * mention is answered with the main model, or, when it asks for a level,
 * acknowledged without one; a message no one addressed to it is judged by
 * the routing model at the channel's level (never at observer). A post the
 * channel refuses is said once in the log and dropped, never retried; a
 * disabled membership is no longer followed.
 */
import { E } from '@endo/far';
import type { Provider } from '../../providers/types.js';
import { describeError } from '../../providers/describe-error.js';
import type { Clock } from '../lifecycle/clock.js';
import type { Log } from '../log/log.js';
import { answerInChannel } from './channel-answer.js';
import { LEVEL_MEANING, levelAskedFor } from './channel-levels.js';
import type { JoinedChannel } from './channel-roster.js';
import { channelRequest, foldEdits, postText, type ChannelPost } from './channel-thread.js';
import type { ChannelView, MemberHandle } from './channel-view.js';
import type { ChannelWatch } from './channel-watch.js';
import { shouldSpeak } from './route-message.js';

/** A channel joined in this run: the agent's member handle, its watch and what it saw. */
export interface Live {
  member: MemberHandle;
  ownMemberId: string;
  name: string;
  watch: ChannelWatch;
  view: ChannelView;
}

export const makeChannelSpeech = (setup: {
  log: Log;
  clock: Clock;
  signal: AbortSignal;
  agentName: string;
  main: () => Provider | undefined;
  router: () => Provider | undefined;
  /** When an answer's placeholder is posted (LAL_PROGRESS_AFTER_MS); undefined: never (LAL_PROGRESS=0). */
  placeholderAfterMs: number | undefined;
  /** Marks a message answered; false when it already was. */
  claim: (entry: JoinedChannel, number: string) => boolean;
  /** Stops following a channel (its membership was disabled). */
  leave: (key: string) => void;
}) => {
  const { log, clock, signal } = setup;
  /** Says why a post failed, once, and drops it: no retry (heat, a disabled membership). */
  const postFailed = (entry: JoinedChannel, error: unknown) => {
    const why = describeError(error);
    if (/has been disabled|is temporarily banned/.test(why)) {
      entry.disabled = true;
      setup.leave(entry.key);
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
      const posts = await joined.view.postsUpTo(number);
      await answerInChannel({
        member: joined.member,
        ownMemberId: joined.ownMemberId,
        request: channelRequest({
          agentName: setup.agentName,
          channelName: joined.name,
          ownMemberId: joined.ownMemberId,
          posts,
          authorOf: await joined.view.authors(posts),
          answering: number,
        }),
        provider,
        clock,
        answering: number,
        placeholderAfterMs: setup.placeholderAfterMs,
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
    const posts = await joined.view.postsUpTo(post.number);
    const authorOf = await joined.view.authors(posts);
    const lines = foldEdits(posts).map(
      ({ post: one, text }) =>
        `${one.memberId === joined.ownMemberId ? setup.agentName : authorOf(one.memberId)}: ${text}`,
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
    if (speak && setup.claim(entry, String(post.number))) await answer(entry, joined, post.number);
  };

  return { answer, serveMention, route };
};
harden(makeChannelSpeech);
