/**
 * The newest daemon's chat UI telling a party it was @mentioned in a channel
 * (packages/chat/chat.js, sendMentionNotification), as the poster's chat does
 * it through the poster's powers: an invitation under the party's name when
 * it has none yet, then an inbox message to the party: "You were mentioned
 * in " + the channel (the first edge: the poster's own channel object, the
 * admin when the poster made it) + a recap of the thread up to the mention
 * (each author an edge on first appearance when the poster has a name for
 * it) + "[channel-reply-info: edge=E join=J replyTo=N]" and "Use channelReply
 * to respond.". N is the mention's number; J the party's pet name.
 */
import { E } from '@endo/far';
import type { ChannelMessage } from './channel-store.js';

interface ChannelMethods {
  listMessages(): Promise<readonly ChannelMessage[]>;
  getMembers(): Promise<readonly { memberId: string; invitedAs: string }[]>;
  getMemberId(): string;
  getProposedName(): string;
  createInvitation(name: string): Promise<unknown>;
}

interface PosterPowers {
  lookup(name: string): Promise<unknown>;
  identify(name: string): Promise<unknown>;
  send(to: string, strings: string[], edgeNames: string[], petNames: string[]): Promise<void>;
}

const PREVIEW_CHARS = 120;

/** An edge name made of a display name, as the chat makes one. */
const edgeNameOf = (name: string): string =>
  name
    .toLowerCase()
    .replace(/[^a-z0-9-]/g, '-')
    .replace(/^[^a-z]/, 'u')
    .slice(0, 128) || 'sender';

/** The chain of messages from the thread's root down to `fromNumber`. */
const threadTo = (messages: readonly ChannelMessage[], fromNumber: string) => {
  const byNumber = new Map(messages.map(message => [String(message.number), message]));
  const chain: ChannelMessage[] = [];
  for (let at = byNumber.get(fromNumber); at !== undefined;) {
    chain.unshift(at);
    at = at.replyTo === undefined ? undefined : byNumber.get(at.replyTo);
  }
  return chain;
};

export const notifyMention = async (
  poster: unknown,
  options: {
    /** The poster's pet name for the channel. */
    channel: string;
    /** The poster's pet name for the party mentioned. */
    party: string;
    /** The message the mention answers, when it was posted in a thread. */
    threadKey?: string;
    /** The name the invitation is made under (the chat asks; the pet name by default). */
    displayName?: string;
  },
): Promise<void> => {
  const powers = E(poster as PosterPowers);
  const channelRef = (await powers.lookup(options.channel)) as ChannelMethods;
  const channel = E(channelRef);
  const members = await channel.getMembers();
  if (!members.some(member => member.invitedAs === options.party))
    await channel.createInvitation(options.displayName ?? options.party);

  const messages = await channel.listMessages();
  // Authors the poster can name: itself (as @self), and members invited under a name it holds.
  const authors = new Map<string, { petName: string; edgeName: string }>();
  authors.set(await channel.getMemberId(), {
    petName: '@self',
    edgeName: edgeNameOf(await channel.getProposedName()),
  });
  for (const member of await channel.getMembers()) {
    if ((await powers.identify(member.invitedAs)) !== undefined)
      authors.set(member.memberId, { petName: member.invitedAs, edgeName: member.invitedAs });
  }

  // The mention: the newest reply to the thread's message, else that message, else the last.
  const mention =
    options.threadKey === undefined
      ? undefined
      : [...messages].reverse().find(message => message.replyTo === options.threadKey);
  const fromNumber =
    mention !== undefined
      ? String(mention.number)
      : (options.threadKey ?? (messages.length > 0 ? String(messages.at(-1)!.number) : '0'));

  const strings = ['You were mentioned in '];
  const edgeNames = [options.channel];
  const petNames = [options.channel];
  let text = ':\n\n';
  // Each author an edge once; an edge name the message already uses gets "-author" after it.
  const embedded = new Set<string>();
  const used = new Set<string>([options.channel]);
  threadTo(messages, fromNumber).forEach((message, depth) => {
    const said = message.strings.join('');
    const preview = said.length > PREVIEW_CHARS ? `${said.slice(0, PREVIEW_CHARS)}…` : said;
    const indent = `${depth > 0 ? '\n' : ''}${'  '.repeat(depth)}`;
    const author = authors.get(message.memberId);
    if (author !== undefined && !embedded.has(author.edgeName)) {
      embedded.add(author.edgeName);
      const edgeName = used.has(author.edgeName) ? `${author.edgeName}-author` : author.edgeName;
      used.add(edgeName);
      strings.push(`${text}${indent}`);
      edgeNames.push(edgeName);
      petNames.push(author.petName);
      text = ` (author): ${preview}`;
    } else {
      text += `${indent}${author?.edgeName ?? message.memberId}: ${preview}`;
    }
  });
  strings.push(
    `${text}\n\n[channel-reply-info: edge=${options.channel} join=${options.party} replyTo=${fromNumber}]\nUse channelReply to respond.`,
  );
  await powers.send(options.party, strings, edgeNames, petNames);
};
harden(notifyMention);
