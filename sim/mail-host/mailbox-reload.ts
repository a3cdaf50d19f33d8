/**
 * A mailbox reloaded as the daemon reloads it after a restart: every record
 * rebuilt from what was kept on disk, unless it holds an eval-proposal, which
 * the daemon (at f0a46042a) cannot revive.
 */
import type { MailboxContents } from './message-records.js';
import type { MessageRecord, Settlement } from './types.js';

/** The daemon's error (at f0a46042a) for a mailbox it cannot reload: it holds an eval-proposal message. */
export const MAILBOX_LOAD_ERROR = 'Unknown message formula type';
harden(MAILBOX_LOAD_ERROR);

const unloadableTypes = new Set(['eval-proposal-reviewer', 'eval-proposal-proposer']);

/** Types of undismissed messages the daemon cannot reload, with their numbers. */
export const unloadableOf = (messages: ReadonlyMap<bigint, MessageRecord>) =>
  [...messages.values()]
    .filter(record => unloadableTypes.has(record.type))
    .map(record => ({ number: record.number, type: record.type }));
harden(unloadableOf);

export const reloadMailbox = (
  { messages, stored, revisions }: MailboxContents,
  stamp: (number: bigint, fields: Record<string, unknown>, date: string) => MessageRecord,
  settledFor: (promiseId: string) => Promise<Settlement>,
  alwaysReplyTo = true,
): void => {
  const problems = [...stored.entries()].filter(([, { envelope }]) =>
    unloadableTypes.has(envelope.type),
  );
  if (problems.length > 0) {
    const list = problems
      .map(([number, { envelope }]) => `#${number} (${envelope.type})`)
      .join(', ');
    throw Error(
      `${MAILBOX_LOAD_ERROR}: the mailbox cannot be reloaded because it holds undismissed ${list}; ` +
        'the daemon cannot revive eval-proposal messages, dismiss them once settled',
    );
  }
  messages.clear();
  revisions.clear();
  for (const [number, { envelope, date }] of stored) {
    // At f0a46042a reloaded records always carry replyTo (possibly undefined); the newest
    // daemon leaves it out when there is none (seen by `npm run conformance`).
    const fields: Record<string, unknown> =
      alwaysReplyTo || envelope.replyTo !== undefined
        ? { ...envelope, replyTo: envelope.replyTo }
        : { ...envelope };
    if (envelope.type === 'request') fields.settled = settledFor(envelope.promiseId);
    messages.set(number, stamp(number, fields, date));
  }
};
harden(reloadMailbox);
