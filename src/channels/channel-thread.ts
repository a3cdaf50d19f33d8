/**
 * A channel turn's request, built from that channel's messages only
 * (docs/behaviour.md 10.4): its recent messages with their authors by the
 * channel's member names, what the agent said there, each edit folded into
 * the message it revises; never the HOST's thread, another channel's, or a
 * peer's. Members' words are shown as what they are: untrusted text.
 */
import type { ChatMessage } from '../../providers/types.js';
import { stringList } from '../mail/message-record.js';

/** A channel message as the daemon gives it (docs/daemon-api.md, "Channels"). */
export interface ChannelPost {
  readonly number: bigint;
  readonly memberId: string;
  readonly strings: readonly string[];
  readonly names?: readonly string[];
  readonly replyTo?: string;
  readonly replyType?: string;
}

/** One message of a joined channel, for the serving loop (in the channel's own lane). */
export interface ChannelWork {
  kind: 'channel';
  /** The channel, by its key in the roster. */
  key: string;
  post: ChannelPost;
  /** A mention already claimed that waited for the channel's bounds or the budgets: answered now. */
  held?: true;
}

export const isChannelPost = (value: unknown): value is ChannelPost => {
  const post = value as Partial<ChannelPost> | null;
  return (
    post !== null &&
    typeof post === 'object' &&
    typeof post.number === 'bigint' &&
    typeof post.memberId === 'string' &&
    Array.isArray(post.strings)
  );
};
harden(isChannelPost);

/** What a post says: its strings with @name for each value it carries. */
export const postText = (post: ChannelPost): string => {
  const strings = stringList(post.strings);
  const names = stringList(post.names);
  return strings
    .map((part, index) => part + (index < names.length ? `@${names[index]}` : ''))
    .join('');
};
harden(postText);

const RECENT = 30;
const POST_MAX_CHARS = 2_000;
const NAME_MAX_CHARS = 64;
const LINE_BREAKS = /\r\n?|[\n\u2028\u2029]/g;

/**
 * A member's name as a turn shows it (a member names itself): one line, cut, and never what the
 * agent's own posts are shown as ("you (Lal)") nor the agent's name: such a name, or none, is
 * shown as the member's number with the name it gave.
 */
const memberShown = (
  name: string,
  memberId: string,
  agentName: string,
): { own: string } | { numbered: string } => {
  const line = name
    .replace(/[\p{Cc}\u2028\u2029]+/gu, ' ')
    .trim()
    .slice(0, NAME_MAX_CHARS);
  if (line !== '' && !/^you\b/i.test(line) && line.toLowerCase() !== agentName.toLowerCase())
    return { own: line };
  return { numbered: `member ${memberId}${line === '' ? '' : ` (named ${JSON.stringify(line)})`}` };
};

export const memberName = (name: string, memberId: string, agentName: string): string => {
  const shown = memberShown(name, memberId, agentName);
  return 'own' in shown ? shown.own : shown.numbered;
};
harden(memberName);

/**
 * A member's name as a title shows it, in one pair of quotes: the name it gave quoted, or the
 * member's number with that name quoted inside (never quotes escaped inside quotes).
 */
export const memberTitle = (name: string, memberId: string, agentName: string): string => {
  const shown = memberShown(name, memberId, agentName);
  return 'own' in shown ? JSON.stringify(shown.own) : shown.numbered;
};
harden(memberTitle);

/**
 * A channel's name as the agent shows it (its turn's prompt, the HOST's lines, help(), recall):
 * the edge name the notification's sender chose, so one line without quotes, cut; `fallback`
 * (its key) when nothing is left.
 */
export const channelName = (name: string, fallback: string): string =>
  name
    .replace(/[\p{Cc}\u2028\u2029"\\`]+/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, NAME_MAX_CHARS) || fallback;
harden(channelName);

/** A post's words as a line of the thread: their own line breaks indented, so none reads as a post of its own. */
export const threadLine = (who: string, text: string): string =>
  `${who}: ${text.replace(LINE_BREAKS, '\n  ')}`;
harden(threadLine);

/**
 * The channel's posts with each edit folded into the post it revises, oldest first. Only its
 * author's edit revises a post: another member's "edit" is that member's own words, shown as
 * theirs (never in the agent's voice nor another member's); an edit of a post not seen is left out.
 */
export const foldEdits = (posts: readonly ChannelPost[]): { post: ChannelPost; text: string }[] => {
  const shown = new Map<string, { post: ChannelPost; text: string }>();
  for (const post of posts) {
    const key = String(post.number);
    if (post.replyType !== 'edit') {
      shown.set(key, { post, text: postText(post) });
      continue;
    }
    const revised = shown.get(post.replyTo ?? '');
    if (revised === undefined) continue;
    if (revised.post.memberId === post.memberId) revised.text = postText(post);
    else shown.set(key, { post, text: `(an edit of #${post.replyTo}) ${postText(post)}` });
  }
  return [...shown.values()];
};
harden(foldEdits);

export const channelRequest = (options: {
  /** The channel facet's prompt (src/parties/facets.ts). */
  prompt: string;
  agentName: string;
  ownMemberId: string;
  posts: readonly ChannelPost[];
  authorOf: (memberId: string) => string;
  /** The post to answer. */
  answering: bigint;
}): ChatMessage[] => {
  const { agentName, ownMemberId, authorOf, answering } = options;
  const recent = foldEdits(options.posts)
    .filter(({ post }) => post.number <= answering)
    .slice(-RECENT);
  const nameOf = (memberId: string) => memberName(authorOf(memberId), memberId, agentName);
  const lines = recent.map(({ post, text }) => {
    const who = post.memberId === ownMemberId ? `you (${agentName})` : nameOf(post.memberId);
    return `#${post.number} ${threadLine(who, text.slice(0, POST_MAX_CHARS))}`;
  });
  const asker = recent.find(({ post }) => post.number === answering)?.post.memberId;
  return [
    { role: 'system', content: options.prompt },
    {
      role: 'user',
      content: `The channel's recent messages:\n${lines.join('\n')}\n\nAnswer #${answering}${
        asker === undefined ? '' : ` from ${nameOf(asker)}`
      }.`,
    },
  ];
};
harden(channelRequest);
