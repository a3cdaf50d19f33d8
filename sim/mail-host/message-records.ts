/**
 * A mailbox's records: what it holds (live records, what the daemon keeps on
 * disk, revisions), and records stamped with their number, date and a
 * dismisser that stands for the latest revision of its message.
 */
import { M } from '@endo/patterns';
import type { InterfaceGuard } from '@endo/patterns';
import { makeGuardedExo } from './guarded-exo.js';
import type { Dismisser, Envelope, MessageRecord } from './types.js';

const DismisserInterface: InterfaceGuard = M.interface('EndoDismisser', {
  dismiss: M.call().returns(M.promise()),
});

/** What the daemon keeps on disk for a message: the envelope without live objects, plus its date. */
type StoredMessage = { readonly envelope: Envelope; readonly date: string };

/** One revision of a message, as messageHistory reports it (before locators are written in). */
export interface Revision {
  readonly envelope: Envelope;
  readonly done: boolean;
  readonly date: string;
}

/** What one mailbox holds, by message number. */
export interface MailboxContents {
  readonly messages: Map<bigint, MessageRecord>;
  readonly stored: Map<bigint, StoredMessage>;
  /** The daemon keeps revisions in memory only: after a restart a message's history starts again empty. */
  readonly revisions: Map<bigint, Revision[]>;
}

/** `withDone`: the newest daemon stamps every message with `done` (true unless a revision says otherwise). */
export const makeMessageStamps = (
  { messages, stored, revisions }: MailboxContents,
  withDone: boolean,
) => {
  // The record each dismisser stands for now (a revision takes the place of the one before).
  const lives = new WeakMap<MessageRecord, { record?: MessageRecord }>();
  const doneOf = (fields: Record<string, unknown>) =>
    withDone ? { done: fields.done ?? true } : {};

  /** A new record with a fresh dismisser. */
  const stamp = (number: bigint, fields: Record<string, unknown>, date: string): MessageRecord => {
    let resolveDismissed!: () => void;
    const dismissed = new Promise<void>(resolve => {
      resolveDismissed = resolve;
    });
    const live: { record?: MessageRecord } = {};
    const dismisser = makeGuardedExo<Dismisser>('Dismisser', DismisserInterface, {
      async dismiss() {
        // A dismisser from before a restart no longer names a live record.
        if (messages.get(number) !== live.record) return undefined;
        messages.delete(number);
        stored.delete(number);
        revisions.delete(number);
        resolveDismissed();
        return undefined;
      },
    });
    const record = harden({
      ...fields,
      ...doneOf(fields),
      number,
      date,
      dismissed,
      dismisser,
    }) as unknown as MessageRecord;
    live.record = record;
    lives.set(record, live);
    return record;
  };

  /** A revision of `existing`: its number, dismissed promise and dismisser, which now stands for it. */
  const restamp = (
    existing: MessageRecord,
    fields: Record<string, unknown>,
    date: string,
  ): MessageRecord => {
    const record = harden({
      ...fields,
      ...doneOf(fields),
      number: existing.number,
      date,
      dismissed: existing.dismissed,
      dismisser: existing.dismisser,
    }) as unknown as MessageRecord;
    const live = lives.get(existing);
    if (live) {
      live.record = record;
      lives.set(record, live);
    }
    return record;
  };

  return { stamp, restamp };
};
harden(makeMessageStamps);
