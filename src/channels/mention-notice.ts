/**
 * The newest daemon's chat UI tells a party it was @mentioned in a channel
 * with an inbox message: the channel as its first value, a recap of the
 * thread, and `[channel-reply-info: edge=E join=J replyTo=N]` (docs/daemon-api.md,
 * "Channels"). Read here: which edge is the channel, the name to join by, and
 * the number of the message to answer. A message that carries any of the
 * chat's marks of one (its opening, its tag, its closing line) but does not
 * read is said to be one that does not read, never taken for an ordinary
 * message: its recap is the channel members' words, whoever sent it
 * (docs/behaviour.md 11.1), so it must reach no turn as the sender's.
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

/** A notification read, or why one did not read (in the agent's words: nothing of the message's). */
export type MentionReading = { readonly notice: MentionNotice } | { readonly unreadable: string };

// The chat's opening, followed by the channel as the first value.
const OPENING = 'You were mentioned in ';
const TAG_MARK = '[channel-reply-info';
const CLOSING = 'Use channelReply to respond';
const TAG = /\[channel-reply-info:\s*edge=(\S+)\s+join=(\S+)\s+replyTo=(\d+)\]/;

const unreadable = (why: string): MentionReading => harden({ unreadable: why });

/** undefined when the message is no mention notification at all (none of the chat's marks). */
export const readMentionNotice = (message: MessageRecord): MentionReading | undefined => {
  if (message.type !== 'package') return undefined;
  const text = packageText(message);
  const strings = stringList(message.strings);
  const names = stringList(message.names);
  const marked =
    (strings[0] === OPENING && names.length > 0) ||
    text.includes(TAG_MARK) ||
    text.includes(CLOSING);
  if (!marked) return undefined;
  const found = TAG.exec(text);
  if (found === null)
    return unreadable('its [channel-reply-info: …] tag is missing or does not read');
  const [, edge = '', join = '', replyTo = ''] = found;
  if (names.length === 0) return unreadable('no channel is attached to it');
  if (names[0] !== edge)
    return unreadable('its tag names another edge than the value attached first');
  const ids = Array.isArray(message.ids) ? (message.ids as unknown[]) : [];
  const channelId = idFromLocator(ids[0]);
  if (channelId === undefined)
    return unreadable('the value attached first has no identity to read');
  return harden({ notice: harden({ edge, join, replyTo, channelId }) });
};
harden(readMentionNotice);
