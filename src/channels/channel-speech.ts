/**
 * How the agent speaks in one joined channel (docs/behaviour.md 11): a
 * mention is answered with the main model, or, when it asks for a level,
 * acknowledged without one; a message no one addressed to it is judged by
 * the routing model at the channel's level (never at observer). Each answer
 * and each routing request is the channel's to pay (./channel-budget.ts),
 * its turn holds the channel's facet (src/parties/facets.ts), and what it
 * said goes into the searchable history as the channel's, its members'
 * words labelled. A post the channel refuses is said once in the log and
 * dropped, never retried; a disabled membership is no longer followed.
 */
import { E } from '@endo/far';
import type { Provider, Usage } from '../../providers/types.js';
import { describeError } from '../../providers/describe-error.js';
import type { Turn } from '../history/conversation.js';
import type { Clock } from '../lifecycle/clock.js';
import type { Log } from '../log/log.js';
import type { AgentEvent, Observe } from '../events/agent-events.js';
import { channelFacet } from '../parties/facets.js';
import type { Persona } from '../config/config.js';
import { answerInChannel } from './channel-answer.js';
import { channelParty, type ChannelBudget } from './channel-budget.js';
import { levelAnswer, levelAskedFor } from './channel-levels.js';
import type { JoinedChannel } from './channel-roster.js';
import {
  channelRequest,
  foldEdits,
  memberName,
  memberTitle,
  postText,
  threadLine,
  type ChannelPost,
  type ChannelWork,
} from './channel-thread.js';
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

const TITLE_CHARS = 160;

/** A channel's answered turn, for the searchable history: the members' words carry their label. */
const channelTurn = (
  channel: string,
  post: ChannelPost,
  author: { name: string; title: string },
  answer: string,
): Turn => {
  const text = postText(post);
  return {
    title: `#${post.number} in channel ${JSON.stringify(channel)} from ${author.title}: ${JSON.stringify(text.slice(0, TITLE_CHARS))}`,
    messages: [
      { role: 'user', content: `#${post.number} ${threadLine(author.name, text)}` },
      { role: 'assistant', content: answer },
    ],
    label: { read: `the words of channel "${channel}"'s members`, from: 0 },
  };
};

/** What speaking in the joined channels needs of the agent (./joined-channels.ts passes it on). */
export interface SpeechSetup {
  log: Log;
  clock: Clock;
  signal: AbortSignal;
  /** The persona's name ("Lal", "Fae"): @lal addresses it, whatever it joined as. */
  agentName: string;
  /** The main model, or none (then nothing is answered). */
  main: () => Provider | undefined;
  /** The routing model (LAL_ROUTER_MODEL …), the main one when none is named. */
  router: () => Provider | undefined;
  /** When an answer's placeholder is posted (LAL_PROGRESS_AFTER_MS); undefined: never (LAL_PROGRESS=0). */
  placeholderAfterMs: number | undefined;
  persona: Persona;
  budget: ChannelBudget<ChannelWork>;
  /** Keeps an answered turn in the searchable history as the channel's. */
  remember: (turn: Turn, channel: string) => void;
  /** Told of each answer's turn as of a mail turn's (its start, its streamed text, its end). */
  observe: Observe;
}

/** Says why a post failed, once, and drops it: no retry (heat, a disabled membership). */
const makePostFailed =
  (log: Log, leave: (key: string) => void) => (entry: JoinedChannel, error: unknown) => {
    const why = describeError(error);
    if (/has been disabled|is temporarily banned/.test(why)) {
      entry.disabled = true;
      leave(entry.key);
      log(`channel ${entry.key}: ${why}; no longer followed (the HOST may leave it)`);
    } else if (/Rate limit lockout/.test(why)) {
      log(`channel ${entry.key}: ${why}; this answer is dropped, not retried`);
    } else log(`channel ${entry.key}: could not answer: ${why}`);
  };

/** An answer's turn as its observers hear it end: answered with what it used, failed, or stopped. */
const turnEnd = (
  title: string,
  outcome: { usage: Usage | undefined; model: string } | { error: unknown; stopped: boolean },
): AgentEvent =>
  'error' in outcome
    ? {
        kind: 'turn-end',
        title,
        modelCalls: 1,
        stopReason: outcome.stopped ? 'cancelled' : 'error',
        usage: { inputTokens: 0, outputTokens: 0 },
        error: describeError(outcome.error),
      }
    : {
        kind: 'turn-end',
        title,
        modelCalls: 1,
        stopReason: 'answered',
        usage: outcome.usage ?? { inputTokens: 0, outputTokens: 0 },
        models: [outcome.model],
      };

/** Answers one post with the main model, as a turn its observers are told of. */
const makeAnswer =
  (setup: SpeechSetup, postFailed: ReturnType<typeof makePostFailed>) =>
  async (entry: JoinedChannel, joined: Live, post: ChannelPost) => {
    const { log, clock, signal } = setup;
    const provider = setup.main();
    if (provider === undefined) {
      log(`channel ${entry.key}: no model to answer #${post.number} with`);
      return;
    }
    const facet = channelFacet(setup.persona, joined.name);
    let editFailed: unknown;
    let title: string | undefined;
    try {
      const posts = await joined.view.postsUpTo(post.number);
      const authorOf = await joined.view.authors(posts);
      const author = {
        name: memberName(authorOf(post.memberId), post.memberId, setup.agentName),
        title: memberTitle(authorOf(post.memberId), post.memberId, setup.agentName),
      };
      // Names only (no member's words): a host shows it, and the log keeps it, as the turn's title.
      title = `in channel ${JSON.stringify(joined.name)}: #${post.number} from ${author.title}`;
      setup.observe({ kind: 'turn-start', title });
      const { answer: said, ...used } = await answerInChannel({
        member: joined.member,
        ownMemberId: joined.ownMemberId,
        request: channelRequest({
          prompt: facet.prompt,
          agentName: setup.agentName,
          ownMemberId: joined.ownMemberId,
          posts,
          authorOf,
          answering: post.number,
        }),
        facet,
        onNotHeld: names =>
          log(
            `channel ${entry.key}: the model called ${names.join(', ')}, which a channel's turn does not hold; not run`,
          ),
        provider,
        clock,
        answering: post.number,
        placeholderAfterMs: setup.placeholderAfterMs,
        signal,
        onEditError: error => {
          editFailed = error;
        },
        onText: text => setup.observe({ kind: 'model-text', call: 1, text }),
      });
      // The streamed words became the answer posted: said as a mail turn's reply is, before its end (issue 45).
      setup.observe({ kind: 'model-reply', call: 1, usage: used.usage, toolCalls: 0 });
      setup.observe(turnEnd(title, used));
      setup.remember(channelTurn(joined.name, post, author, said), joined.name);
    } catch (error) {
      if (title !== undefined)
        setup.observe(turnEnd(title, { error: editFailed ?? error, stopped: signal.aborted }));
      postFailed(entry, editFailed ?? error);
    }
  };

export const makeChannelSpeech = (
  setup: SpeechSetup & {
    /** Marks a message answered; false when it already was. */
    claim: (entry: JoinedChannel, number: string) => boolean;
    /** Keeps a claimed mention among those that wait, over restarts (its thread told or not yet), or drops it (false). */
    waits: (entry: JoinedChannel, number: string, state: 'told' | 'untold' | false) => void;
    /** Whether a waiting mention's thread has heard when it will be answered. */
    told: (entry: JoinedChannel, number: string) => boolean;
    /** Stops following a channel (its membership was disabled). */
    leave: (key: string) => void;
  },
) => {
  const { log, signal } = setup;
  const postFailed = makePostFailed(log, setup.leave);
  const say = (entry: JoinedChannel, joined: Live, post: ChannelPost) => (text: string) =>
    E(joined.member)
      .post([text], [], [], String(post.number))
      .catch((error: unknown) => postFailed(entry, error));

  const answer = makeAnswer(setup, postFailed);

  /**
   * An answer the channel pays for: now, or once its bounds and the budgets let it. Its thread
   * hears once when it will be answered, whatever it waited on before (the channel's bounds are
   * the HOST's to hear of, not the thread's).
   */
  const answerWithin = async (entry: JoinedChannel, joined: Live, post: ChannelPost) => {
    const number = String(post.number);
    const work: ChannelWork = { kind: 'channel', key: entry.key, post, held: true };
    const party = channelParty(entry.channelId, joined.name);
    let told = setup.told(entry, number);
    const mention = {
      number: post.number,
      told,
      say: (text: string) => {
        told = true;
        return say(entry, joined, post)(text);
      },
    };
    const may = await setup.budget.mayAnswer(party, work, mention);
    setup.waits(entry, number, may ? false : told ? 'told' : 'untold');
    if (may) await answer(entry, joined, post);
  };

  /**
   * A post addressed to the agent: a level asked for is set and acknowledged, one asked for in
   * words that cannot be told is left as it was and said so (neither asks the model); else it is
   * answered.
   */
  const serveMention = async (entry: JoinedChannel, joined: Live, post: ChannelPost) => {
    const level = levelAskedFor(postText(post), entry.level);
    if (level === undefined) {
      await answerWithin(entry, joined, post);
      return;
    }
    if (level !== 'unclear') entry.level = level;
    log(`channel ${entry.key}: level ${entry.level}, asked in #${post.number} (${level})`);
    await say(entry, joined, post)(levelAnswer(level, entry.level));
  };

  const route = async (entry: JoinedChannel, joined: Live, post: ChannelPost) => {
    const level = entry.level;
    const router = setup.router();
    // Only when mentioned: no model is asked at all.
    if (level === 'observer' || router === undefined) return;
    if (!setup.budget.mayRoute(channelParty(entry.channelId, joined.name))) return;
    const posts = await joined.view.postsUpTo(post.number);
    const authorOf = await joined.view.authors(posts);
    const lines = foldEdits(posts).map(({ post: one, text }) =>
      threadLine(
        one.memberId === joined.ownMemberId
          ? setup.agentName
          : memberName(authorOf(one.memberId), one.memberId, setup.agentName),
        text,
      ),
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
    if (speak && setup.claim(entry, String(post.number))) await answerWithin(entry, joined, post);
  };

  return { serveMention, route, answerWithin };
};
harden(makeChannelSpeech);
