/**
 * An answer in a channel, as the agent's own member, in the thread of the
 * message it answers: a placeholder posted as a reply, then edited
 * (`replyType: 'edit'`, a new message revising the placeholder) as the
 * model's text grows, at most once a second, and finally into the answer
 * (../progress/throttled-edits.ts). The model is asked once, with no tools:
 * a channel turn holds nothing but its channel's thread and this post.
 */
import { E } from '@endo/far';
import type { Provider } from '../../providers/types.js';
import type { Clock } from '../lifecycle/clock.js';
import { makeThrottledEdits, textContent } from '../progress/throttled-edits.js';
import { stripThinking } from '../reply/strip-thinking.js';
import { channelRequest, isChannelPost, type ChannelPost } from './channel-thread.js';

const PLACEHOLDER = 'Thinking…';
const EDIT_GAP_MS = 1_000;

/** A member's handle, as the agent uses it. */
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

/** Member names by id, looked up once per answer. */
const makeAuthorNames = async (member: MemberHandle, posts: readonly ChannelPost[]) => {
  const names = new Map<string, string>();
  for (const memberId of new Set(posts.map(post => post.memberId))) {
    // eslint-disable-next-line no-await-in-loop -- one look-up per author of the recent thread
    const found = await E(member)
      .getMember(memberId)
      .catch(() => undefined);
    names.set(memberId, found?.proposedName ?? `member ${memberId}`);
  }
  return (memberId: string) => names.get(memberId) ?? `member ${memberId}`;
};

export const answerInChannel = async (options: {
  member: MemberHandle;
  provider: Provider;
  clock: Clock;
  agentName: string;
  channelName: string;
  answering: bigint;
  signal?: AbortSignal;
  onEditError: (error: unknown) => void;
}): Promise<string> => {
  const { member, answering } = options;
  const replyTo = String(answering);
  await E(member).post([PLACEHOLDER], [], [], replyTo);
  const [ownMemberId, posts] = await Promise.all([E(member).getMemberId(), postsOf(member)]);
  const placeholder = posts.findLast(
    post =>
      post.memberId === ownMemberId && post.replyTo === replyTo && post.replyType === undefined,
  );
  const edits = makeThrottledEdits({
    clock: options.clock,
    gapMs: EDIT_GAP_MS,
    // Without its placeholder found, the answer alone goes, as a plain reply.
    write: async (content, done) => {
      if (placeholder !== undefined)
        await E(member).post(content.strings, [], [], String(placeholder.number), [], 'edit');
      else if (done) await E(member).post(content.strings, [], [], replyTo);
    },
    onError: options.onEditError,
  });
  const authorOf = await makeAuthorNames(member, posts);
  const result = await options.provider.chat(
    channelRequest({
      agentName: options.agentName,
      channelName: options.channelName,
      ownMemberId,
      posts: posts.filter(post => post !== placeholder),
      authorOf,
      answering,
    }),
    [],
    {
      ...(options.signal === undefined ? {} : { signal: options.signal }),
      onText: text => edits.show(stripThinking(text).trim() || PLACEHOLDER),
    },
  );
  const answer = stripThinking(result.message.content).trim() || '(no answer)';
  if (!(await edits.finish(textContent(answer))))
    throw new Error('the answer could not be written into the placeholder');
  return answer;
};
harden(answerInChannel);
