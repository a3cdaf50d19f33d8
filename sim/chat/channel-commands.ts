/**
 * The simulator's channels (`npm start -- --newest`): the HOST makes one,
 * posts in it, posts as another member (invited and joined on first use),
 * and shows it. A post naming @<agent> is followed by the chat UI's mention
 * notification (sim/mail-host/channel-mention.ts) while the agent is not yet
 * a member; once it is, the agent's own watch sees the mention.
 */
import { foldEdits, type ChannelPost } from '../../src/channels/channel-thread.js';
import { E } from '@endo/far';
import type { MailHost } from '../mail-host/index.js';
import { makeMemberNames, mentions, type ChannelEcho } from './channel-echo.js';

export type ChannelCommand =
  | { kind: 'channel'; action: 'new' | 'show'; channel: string }
  | { kind: 'channel'; action: 'post'; channel: string; member: string; text: string };

const CHANNEL_USAGE =
  'Usage: /channel new <name> | /channel post <name> [as <member>] <text> | /channel show <name>';

const words = (text: string): [string, string] => {
  const match = /^(\S+)\s*([\s\S]*)$/.exec(text.trim());
  return match === null ? ['', ''] : [match[1]!, match[2]!.trim()];
};

export const parseChannelCommand = (
  rest: string,
): ChannelCommand | { kind: 'error'; error: string } => {
  const [action, afterAction] = words(rest);
  const [channel, afterChannel] = words(afterAction);
  if (channel === '') return { kind: 'error', error: CHANNEL_USAGE };
  if (action === 'new' || action === 'show') {
    // Words after the name were dropped before: `/channel new a b` made "a" as if "b" were not typed.
    if (afterChannel !== '')
      return {
        kind: 'error',
        error: `A channel's name is one word ("${channel} ${afterChannel}" is more). ${CHANNEL_USAGE}`,
      };
    return { kind: 'channel', action, channel };
  }
  if (action !== 'post') return { kind: 'error', error: CHANNEL_USAGE };
  const [as, afterAs] = words(afterChannel);
  const [member, text] = as === 'as' ? words(afterAs) : ['you', afterChannel];
  if (text === '' || member === '') return { kind: 'error', error: CHANNEL_USAGE };
  return { kind: 'channel', action, channel, member, text };
};
harden(parseChannelCommand);

type Far = any;

const NEEDS_NEWEST = 'Channels are the newest daemon’s: start the simulator with --newest';

/** The members the HOST's simulator posts as, by channel and name (a handle lasts one run). */
const members = new WeakMap<MailHost, Map<string, unknown>>();

const memberFor = async (mailHost: MailHost, channel: unknown, key: string, name: string) => {
  const known = members.get(mailHost) ?? new Map<string, unknown>();
  members.set(mailHost, known);
  const held = known.get(`${key}/${name}`);
  if (held !== undefined) return held;
  const invited = ((await E(channel as Far).getMembers()) as { invitedAs: string }[]).some(
    one => one.invitedAs === name,
  );
  if (!invited) await E(channel as Far).createInvitation(name);
  const member = await E(channel as Far).join(name);
  known.set(`${key}/${name}`, member);
  return member;
};

/** The channel as a person reads it: each post with its author, edits folded into what they revise. */
const showChannel = async (channel: unknown): Promise<string> => {
  const posts = (await E(channel as Far).listMessages()) as ChannelPost[];
  const nameOf = makeMemberNames(channel);
  const lines: string[] = [];
  for (const { post, text } of foldEdits(posts)) {
    const thread = post.replyTo === undefined ? '' : ` (re #${post.replyTo})`;
    lines.push(`#${post.number} ${await nameOf(post.memberId)}${thread}: ${text}`);
  }
  return lines.join('\n') || '(no messages yet)';
};

/** Whether the HOST's name `name` is a channel: its locator says its formula's type. */
const isChannel = async (mailHost: MailHost, name: string): Promise<boolean> => {
  const locator = await Promise.resolve(E(mailHost.host as Far).locate(name)).catch(() => '');
  return /[?&]type=channel(?:&|$)/.test(String(locator));
};

/**
 * The channel a command names; one that is not there is said in the person's words (the
 * daemon's own says "Unknown pet name"), with how to make one and the channels there are.
 */
const channelNamed = async (mailHost: MailHost, name: string): Promise<Far> => {
  const host = E(mailHost.host as Far);
  if (mailHost.profile !== 'newest') throw Error(NEEDS_NEWEST);
  if (await isChannel(mailHost, name)) return host.lookup(name);
  const names = (await host.list()) as string[];
  const channels: string[] = [];
  for (const each of names) if (await isChannel(mailHost, each)) channels.push(each);
  const there = channels.length === 0 ? 'you have none yet' : `yours: ${channels.join(', ')}`;
  const what = names.includes(name)
    ? `"${name}" is not a channel`
    : `There is no channel named "${name}"`;
  throw Error(`${what}: /channel new <name> makes one (${there})`);
};

/**
 * Refuses a name the HOST already holds: the daemon's `makeChannel` writes the name over whatever
 * it named, so a second `/channel new room` would leave the first room and its posts unnamed, as
 * good as lost (README, `/channel new`).
 */
const nameIsFree = async (mailHost: MailHost, name: string): Promise<void> => {
  const names = (await E(mailHost.host as Far).list()) as string[];
  if (!names.includes(name)) return;
  if (await isChannel(mailHost, name))
    throw Error(
      `You already have a channel named "${name}" (/channel show ${name} reads it); /channel new <another name> makes another`,
    );
  throw Error(
    `"${name}" is already one of your names (not a channel); /channel new <another name> makes a channel`,
  );
};

/**
 * Does a /channel command; with `echo`, the channel's posts by others (the agent's answers) are
 * shown as they come from then on (./channel-echo.ts).
 */
export const runChannelCommand = async (
  command: ChannelCommand,
  mailHost: MailHost,
  agentName: string,
  echo?: ChannelEcho,
): Promise<string> => {
  const host = E(mailHost.host as Far);
  if (command.action === 'new') {
    if (mailHost.profile !== 'newest') throw Error(NEEDS_NEWEST);
    await nameIsFree(mailHost, command.channel);
    const made = await host.makeChannel(command.channel, 'you');
    echo?.postsAs(command.channel, await E(made).getMemberId());
    await echo?.follow(command.channel, made);
    return `Channel ${command.channel} made; /channel post ${command.channel} <text> writes in it.`;
  }
  const channel = await channelNamed(mailHost, command.channel);
  if (command.action !== 'post') {
    await echo?.follow(command.channel, channel);
    return showChannel(channel);
  }
  const poster =
    command.member === 'you'
      ? channel
      : await memberFor(mailHost, channel, command.channel, command.member);
  // Known as the person's before it posts, so its post is never shown back as another's.
  echo?.postsAs(command.channel, await E(poster).getMemberId());
  await echo?.follow(command.channel, channel);
  await E(poster).post([command.text], [], []);
  const mentioned = mentions(command.text, agentName);
  const joined = ((await E(channel).getMembers()) as { invitedAs: string }[]).some(
    one => one.invitedAs === agentName,
  );
  if (mentioned && !joined) {
    await mailHost.mentionInChannel(command.channel, agentName);
    return `Posted; ${agentName} was invited and told of the mention.`;
  }
  return 'Posted.';
};
harden(runChannelCommand);
