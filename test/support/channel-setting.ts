/**
 * The agent in a channel of the newest daemon's double, for the channel
 * tests (docs/behaviour.md 11): the HOST makes "general" (as Alice), Bob
 * joins, and the agent hears of a mention as the chat tells it. Waits are
 * for what happens in the channel (its stream), never for time.
 */
import { E } from '@endo/far';
import { readStream } from '../../src/daemon/stream-reader-client.js';
import type { ChannelPost } from '../../src/channels/channel-thread.js';
import { say, type RecordedRequest, type Step } from './scripted-provider.js';
import type { AgentRun, StartOptions } from './agent-harness.js';

type Far = any;

/** A channel message as the daemon gives it. */
export type Post = ChannelPost;

export const textOf = (post: Post) => post.strings.join('');

/** The first post (already made or still to come) that matches: a wait for what happens. */
export const untilPost = async (channel: Far, match: (post: Post) => boolean): Promise<Post> => {
  const stream = readStream(await E(channel).followMessages());
  try {
    for (;;) {
      const step = await stream.next();
      if (step.done === true) throw new Error('the channel stream ended');
      if (match(step.value as Post)) return step.value as Post;
    }
  } finally {
    void stream.return();
  }
};

/** The agent's answer to post `number`: its placeholder in that thread, edited into `text`. */
export const untilAnswer = async (channel: Far, number: bigint, text: string) => {
  const placeholder = await untilPost(
    channel,
    post =>
      post.replyTo === String(number) && post.replyType === undefined && post.memberId !== '0',
  );
  const edit = await untilPost(
    channel,
    post =>
      post.replyType === 'edit' &&
      post.replyTo === String(placeholder.number) &&
      textOf(post) === text,
  );
  return { placeholder, edit };
};

export const isRouting = (request: RecordedRequest) =>
  request.messages[0]?.content.includes('You decide whether') === true;

/** The main model's requests: every one that is not a routing request. */
export const answers = (run: AgentRun) =>
  run.provider.requests.filter(request => !isRouting(request));

/** A step answering a channel mention: streams part of its text first. */
export const answer =
  (text: string): Step =>
  (_request, _signal, onText) => {
    onText(text.slice(0, 2));
    return say(text);
  };

export interface ChannelSetting {
  run: AgentRun;
  host: Far;
  admin: Far;
  bob: Far;
}

/** Starts the agent on the newest profile and makes the channel; the placeholder at once by default. */
export const makeChannelStarter =
  (start: (options: StartOptions) => Promise<AgentRun>) =>
  async (
    steps: Step[],
    env: Record<string, string> = {},
    prepare?: StartOptions['prepare'],
    clock?: StartOptions['clock'],
  ): Promise<ChannelSetting> => {
    const run = await start({
      profile: 'newest',
      steps,
      env: { LAL_PROGRESS_AFTER_MS: '0', ...env },
      ...(prepare === undefined ? {} : { prepare }),
      ...(clock === undefined ? {} : { clock }),
    });
    const host = run.host.host as Far;
    const admin = await E(host).makeChannel('general', 'Alice');
    const [bobInvitation] = (await E(admin).createInvitation('bob')) as [Far];
    const bob = await E(bobInvitation).join('Bob');
    return { run, host, admin, bob };
  };

/** Bob posts in the channel; the post's number. */
export const bobSays = async (setting: ChannelSetting, words: string) => {
  await E(setting.bob).post([words], [], []);
  const [last] = ((await E(setting.admin).listMessages()) as Post[]).slice(-1);
  return last!.number;
};

/** Bob mentions the agent and the HOST's chat tells it; resolves once it has answered. */
export const mentionedBy = async (setting: ChannelSetting, words: string, reply: string) => {
  const number = await bobSays(setting, words);
  await setting.run.host.mentionInChannel('general', 'lal');
  return untilAnswer(setting.admin, number, reply);
};
