/**
 * What the agent knows of one joined channel in this run: its recent posts
 * as the watch saw them (own posts and edits included, so a turn folds
 * them), and its members' names as the channel reports them now. A channel
 * turn is built from this, not from a fresh listing: the posts come from the
 * watch, and the names of a turn's authors are read all at once (one round
 * of `getMember`), so a member who renamed itself is shown by its new name at
 * once, without a restart (docs/behaviour.md 11.4). A post not seen yet (a
 * notification ahead of the watch) is read from the channel.
 */
import { E } from '@endo/far';
import { isChannelPost, type ChannelPost } from './channel-thread.js';

/** A member's handle, as the agent uses it (docs/daemon-api.md, "Channels"). */
export interface MemberHandle {
  post(
    strings: string[],
    edgeNames: string[],
    petNames: string[],
    replyTo?: string,
    ids?: string[],
    replyType?: string,
  ): Promise<void>;
  listMessages(): Promise<readonly unknown[]>;
  followMessages(): Promise<unknown>;
  getMemberId(): string;
  getMember(id: string): Promise<{ proposedName?: string } | undefined>;
}

export const postsOf = async (member: MemberHandle): Promise<ChannelPost[]> =>
  ((await E(member).listMessages()) as unknown[]).filter(isChannelPost);
harden(postsOf);

/** Posts kept: a turn shows the last 30, edits folded, so this leaves room for the edits among them. */
const KEPT = 200;

export interface ChannelView {
  /** A post the watch saw, in order. */
  see(post: ChannelPost): void;
  /** The recent posts up to and including `number` (read from the channel when not seen yet). */
  postsUpTo(number: bigint): Promise<readonly ChannelPost[]>;
  /** Names for the authors of these posts, as the channel reports them now (one lookup each, all at once). */
  authors(posts: readonly ChannelPost[]): Promise<(memberId: string) => string>;
}

export const makeChannelView = (member: MemberHandle): ChannelView => {
  const recent: ChannelPost[] = [];
  // The last name read of each member: what a turn shows when the channel cannot be asked.
  const known = new Map<string, string>();
  const nameOf = async (memberId: string): Promise<string> => {
    const found = await Promise.resolve(E(member).getMember(memberId)).catch(() => undefined);
    const name = found?.proposedName;
    if (typeof name === 'string' && name !== '') known.set(memberId, name);
    return known.get(memberId) ?? `member ${memberId}`;
  };
  return harden({
    see: (post: ChannelPost) => {
      recent.push(post);
      if (recent.length > KEPT) recent.shift();
    },
    postsUpTo: async (number: bigint) => {
      const seen = recent.some(post => post.number === number) ? recent : await postsOf(member);
      return seen.filter(post => post.number <= number);
    },
    authors: async (posts: readonly ChannelPost[]) => {
      const ids = [...new Set(posts.map(post => post.memberId))];
      const found = new Map(
        await Promise.all(ids.map(async id => [id, await nameOf(id)] as const)),
      );
      return (memberId: string) => found.get(memberId) ?? `member ${memberId}`;
    },
  });
};
harden(makeChannelView);
