/**
 * The newest daemon's chat UI tells a party it was @mentioned in a channel
 * with an inbox message: the channel as its first value, a recap of the
 * thread, and `[channel-reply-info: edge=E join=J replyTo=N]` (docs/daemon-api.md,
 * "Channels"). Read here: which edge is the channel, the name to join by, and
 * the number of the message to answer. A message that only looks like one
 * (the tag without the channel as its first value) is an ordinary message.
 */
import { idFromLocator } from '../daemon/daemon-adapter.js';
import { packageText, stringList, type MessageRecord } from '../mail/message-record.js';

export interface MentionNotice {
  /** The edge name the channel is attached under (the first). */
  readonly edge: string;
  /** The name to join by (`join(J)`). */
  readonly join: string;
  /** The number of the message to answer, as the channel writes it. */
  readonly replyTo: string;
  /** The channel's formula id, which tells one channel from another whoever names it. */
  readonly channelId: string;
}

const TAG = /\[channel-reply-info:\s*edge=(\S+)\s+join=(\S+)\s+replyTo=(\d+)\]/;

export const readMentionNotice = (message: MessageRecord): MentionNotice | undefined => {
  if (message.type !== 'package') return undefined;
  const found = TAG.exec(packageText(message));
  if (found === null) return undefined;
  const [, edge = '', join = '', replyTo = ''] = found;
  const names = stringList(message.names);
  const ids = Array.isArray(message.ids) ? (message.ids as unknown[]) : [];
  const channelId = idFromLocator(ids[0]);
  if (names[0] !== edge || channelId === undefined) return undefined;
  return harden({ edge, join, replyTo, channelId });
};
harden(readMentionNotice);
