/**
 * A turn per message: a message still being written, or an answered one
 * amended, starts none; one replayed after a restart is dismissed; from a
 * sender past the bounds on conversations it waits (the HOST told once);
 * over the hourly quota it waits (its sender told once when); else the model
 * answers it, it is remembered as handled, and it is finished.
 */
import { describeError } from '../../providers/describe-error.js';
import type { AgentConfig } from '../config/config.js';
import type { Clock } from '../lifecycle/clock.js';
import type { Observe } from '../events/agent-events.js';
import type { Log } from '../log/log.js';
import { messageNotice } from '../mail/message-notice.js';
import { cut, messageKey, messagePreview } from '../mail/message-record.js';
import type { Origin } from '../mail/origin.js';
import { quotaNotice } from '../usage/quota-waits.js';
import { holdKey } from '../lifecycle/holds.js';
import type { AgentParts } from './agent-parts.js';
import type { ToolsFreshness } from './tools-freshness.js';
import type { MailWork } from './work.js';
import { readMentionNotice, type MentionReading } from '../channels/mention-notice.js';
import type { JoinedChannels } from '../channels/joined-channels.js';

/** What the sender of a mention notification that cannot be answered hears: why, and none of its words. */
const unansweredNotice = (mention: MentionReading): string =>
  `I did not answer this channel mention notification (${
    'unreadable' in mention ? mention.unreadable : 'this daemon has no channels'
  }): its words are the channel members', not yours, and I showed them to no one.`;

export const makeMailTurns = (options: {
  parts: AgentParts;
  config: AgentConfig;
  clock: Clock;
  log: Log;
  /** Told of each message held for later (a script waiting for answers learns none comes now). */
  observe: Observe;
  redact: (text: string) => string;
  toolsFresh: ToolsFreshness;
  finishWith: (number: bigint) => Promise<void>;
  dismiss: (number: unknown) => Promise<void>;
  /** The channels (newest daemon): a mention notification is answered in its channel, not here. */
  channels?: Pick<JoinedChannels, 'onMention'>;
}) => {
  const { parts, config, clock, log, observe, redact, toolsFresh, finishWith, dismiss } = options;
  const { handled, revisions, quotaWaits, holds, turns, tell, nameOf, senders } = parts;
  const hostName = parts.daemon.names.host;

  return async (work: MailWork): Promise<void> => {
    const { message } = work;
    const key = messageKey(message);
    const showing = revisions.classify(key, message, key !== undefined && handled.has(key));
    // Still being written (done: false), an answered message amended (told in the next notice),
    // or a showing with a later one queued behind it (which decides): no turn.
    if (showing === 'wait' || showing === 'amended' || showing === 'superseded') return;
    if (showing === 'replayed') {
      // Replayed after a restart: already answered (kept while something asked for it is still pending).
      if (typeof message.number === 'bigint' && key !== undefined) {
        // Its number in this run, so that its key leaves the memory once its dismissal settles.
        handled.add(key, message.number);
        // Dismissed meanwhile (the outcome's turn it was kept for came first): a second
        // dismissal the daemon would refuse, a raw CapTP exception in the agent's log.
        if (!handled.wasDismissed(key)) await finishWith(message.number);
      } else await dismiss(message.number);
      return;
    }
    // A numbered message always has its key (its id, else `n:<number>`): the one spelling of it here.
    if (typeof message.number !== 'bigint' || key === undefined) {
      log(`skipped a message without a number (type ${String(message.type)})`);
      return;
    }
    // A known sender's name is cached; tools/ is checked after the turn.
    const [sender] = await Promise.all([nameOf(message.from), toolsFresh.beforeTurn()]);
    const origin: Origin = { number: message.number, sender };
    const senderKey = parts.senderKeyOf(message.from);
    // The quota's told mark for this message (with the agent's holds, kept over restarts).
    const told = holdKey.message(key);
    const isHost = sender === hostName;
    const held = senders.check(senderKey, isHost);
    if (held !== undefined) {
      // It waits (undismissed, so a restart finds it too); the HOST hears once who is held.
      const line = senders.hold(senderKey, sender, held, work);
      observe({
        kind: 'held',
        number: message.number,
        reason: `${sender} is past a bound on conversations`,
      });
      if (line !== undefined) await tell(undefined, line);
      return;
    }
    const wait = quotaWaits.check();
    if (wait !== undefined) {
      // The message waits (undismissed, so a restart finds it too) and its sender hears when.
      quotaWaits.hold(work, wait);
      observe({
        kind: 'held',
        number: message.number,
        reason: `the hourly budget (${wait.reason})`,
      });
      if (holds.tellOnce(told, 'quota'))
        await tell(origin, quotaNotice(wait, message.number, clock.now()));
      return;
    }
    holds.forget(told);
    senders.served(senderKey, sender, isHost);
    // "mail from <sender>" wake-ups fire (once per minimum period, in the setter's thread).
    parts.wakeUps.mailFrom(sender);
    const mention = readMentionNotice(message);
    if (mention !== undefined) {
      // Joined and answered in the channel's thread. The notification itself is handled, never
      // a turn: its recap is the channel members' words, whoever sent it (docs/behaviour.md 11.1).
      if ('notice' in mention && options.channels !== undefined)
        await options.channels.onMention(mention.notice, message.number);
      else await tell(origin, unansweredNotice(mention));
      handled.add(key, message.number);
      await finishWith(message.number);
      return;
    }
    const preview = messagePreview(message);
    const title = `#${message.number} from ${sender}: ${JSON.stringify(cut(redact(preview).replace(/\s+/g, ' '), 160))}`;
    const outcome = await turns.serve(
      title,
      revisions.takeAmendedNote() + messageNotice(config.persona, message, sender),
      origin,
    );
    if (outcome?.stopReason === 'cancelled') return;
    // Stopped part-way by a spent budget (its sender told when): held, and served again once it frees up.
    if (outcome?.stopReason === 'quota') {
      holds.tellOnce(told, 'quota');
      quotaWaits.holdUntilFree(work);
      return;
    }
    if (revisions.takenBack(key)) {
      // Its sender took it back to rewrite it while it was answered: kept (not handled, not
      // dismissed), so the final edit reaches it and is answered in its own turn.
      log(
        `#${message.number} was taken back by its sender during its turn; it is answered again once finished`,
      );
      await toolsFresh.afterTurn();
      return;
    }
    // The turn has told its sender (tell-turn-end.ts): a failure from here on is logged, never told twice.
    try {
      handled.add(key, message.number);
      revisions.answered(key, message);
      await Promise.all([finishWith(message.number), toolsFresh.afterTurn()]);
    } catch (error) {
      log(`could not finish #${message.number} after its turn: ${redact(describeError(error))}`);
    }
  };
};
harden(makeMailTurns);
