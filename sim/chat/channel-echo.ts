/**
 * The channels the person uses (`npm start -- --newest`), shown as they
 * change: once a `/channel` command names a channel, every post in it by a
 * member the simulator does not post as (the agent, mostly) is shown as it
 * comes, as a reply in the inbox is. An answer with live progress comes as a
 * placeholder post, then edits (`replyType: 'edit'`) as the text grows: the
 * placeholder is shown, and the edited text once the turn that writes it is
 * over (its drafts between are not), so each answer's words are shown once.
 * A post of the person's naming the agent is owed an answer until the agent
 * replies to it or its turn ends: a script piped in waits for it, as it
 * waits for mail the agent has not taken up (./wait-until-idle.ts).
 */
import { E } from '@endo/far';
import { readStream, type StreamReaderClient } from '../../src/daemon/stream-reader-client.js';
import { isChannelPost, postText } from '../../src/channels/channel-thread.js';
import type { AgentEvent } from '../../src/events/agent-events.js';
import type { Presenter } from './presenter.js';
import type { Screen } from './screen.js';

type Far = any;

/** A channel's members by their names: each member's proposed name, asked once. */
export const makeMemberNames = (channel: unknown) => {
  const names = new Map<string, Promise<string>>();
  return (memberId: string): Promise<string> => {
    let name = names.get(memberId);
    if (name === undefined) {
      name = Promise.resolve(E(channel as Far).getMember(memberId)).then(
        (found: { proposedName?: string } | undefined) => found?.proposedName ?? memberId,
        () => memberId,
      );
      names.set(memberId, name);
    }
    return name;
  };
};
harden(makeMemberNames);

/** Whether a post's text names the agent, as the chat UI's mention does (`@lal`, any case). */
export const mentions = (text: string, agentName: string): boolean =>
  new RegExp(`@${agentName}(?![\\w-])`, 'i').test(text);
harden(mentions);

/** The post a channel answer's turn is about (src/channels/channel-speech.ts titles it). */
const CHANNEL_TURN = /^in channel .*: #(\d+) from /;

export interface ChannelEcho {
  /** Shows the channel's new posts from now on (once per channel; the posts so far are not shown). */
  follow(name: string, channel: unknown): Promise<void>;
  /** A member the simulator posts as in that channel: its posts are the person's, not shown again. */
  postsAs(name: string, memberId: string): void;
  /** Told of the agent's events: a channel answer's turn that ended owes nothing more. */
  see(event: AgentEvent): void;
  /** Whether a post of the person's that names the agent still waits for its answer. */
  owesAnswer(): boolean;
  stop(): void;
}

export const makeChannelEcho = (options: {
  screen: Screen;
  presenter: Presenter;
  /** The agent's name: a post naming it (`@lal`) is owed an answer. */
  agentName: string;
  report: (problem: string) => void;
}): ChannelEcho => {
  const { screen, presenter } = options;
  /** The person's posts naming the agent not yet answered: `<channel>#<number>`. */
  const owed = new Set<string>();
  const streams = new Map<string, StreamReaderClient | undefined>();
  const own = new Map<string, Set<string>>();
  let stopped = false;

  const ownOf = (name: string) => {
    const found = own.get(name) ?? new Set<string>();
    own.set(name, found);
    return found;
  };

  const show = async (name: string, channel: unknown) => {
    const nameOf = makeMemberNames(channel);
    const posts = (await E(channel as Far).listMessages()) as unknown[];
    // Only what comes after: what was there is for /channel show.
    const after = posts.reduce<bigint>(
      (last, post) => (isChannelPost(post) && post.number > last ? post.number : last),
      -1n,
    );
    const stream = readStream(await E(channel as Far).followMessages());
    streams.set(name, stream);
    if (stopped) void stream.return();
    /** Each shown post's author and what was last shown of it; an edit's newest text waits for its turn's end. */
    const shown = new Map<string, { memberId: string; head: string; text: string }>();
    const waiting = new Map<string, string>();
    const printLatest = (number: string) => {
      const post = shown.get(number);
      const text = waiting.get(number);
      waiting.delete(number);
      if (post === undefined || text === undefined || text === post.text) return;
      post.text = text;
      screen.print('agent', post.head, text);
    };
    for (;;) {
      const step = await stream.next();
      if (step.done === true || stopped) return;
      const post = step.value;
      if (!isChannelPost(post) || post.number <= after) continue;
      const text = postText(post);
      if (ownOf(name).has(post.memberId)) {
        if (post.replyType !== 'edit' && mentions(text, options.agentName))
          owed.add(`${name}#${post.number}`);
        continue;
      }
      if (post.replyTo !== undefined) owed.delete(`${name}#${post.replyTo}`);
      if (post.replyType === 'edit') {
        const key = post.replyTo ?? '';
        // Only its author's edit revises a post (src/channels/channel-thread.ts foldEdits).
        if (shown.get(key)?.memberId !== post.memberId) continue;
        if (!waiting.has(key)) presenter.atTurnOver(() => printLatest(key));
        waiting.set(key, text);
        continue;
      }
      const thread = post.replyTo === undefined ? '' : ` (re #${post.replyTo})`;
      const head = `#${post.number} ${await nameOf(post.memberId)} in ${name}${thread} ›`;
      shown.set(String(post.number), { memberId: post.memberId, head, text });
      presenter.show(() => screen.print('agent', head, text));
    }
  };

  return {
    follow: async (name, channel) => {
      if (streams.has(name) || stopped) return;
      streams.set(name, undefined);
      void show(name, channel).catch((error: unknown) => {
        if (!stopped)
          options.report(`stopped following channel ${name}: ${(error as Error).message}`);
      });
    },
    postsAs: (name, memberId) => {
      ownOf(name).add(memberId);
    },
    see: event => {
      const number = event.kind === 'turn-end' ? CHANNEL_TURN.exec(event.title)?.[1] : undefined;
      // The agent knows the channel by a name of its own: the post's number is what the title shares.
      if (number !== undefined)
        for (const key of owed) if (key.endsWith(`#${number}`)) owed.delete(key);
    },
    owesAnswer: () => owed.size > 0,
    stop() {
      stopped = true;
      for (const stream of streams.values()) if (stream !== undefined) void stream.return();
    },
  };
};
harden(makeChannelEcho);
