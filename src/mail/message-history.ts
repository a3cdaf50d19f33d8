/**
 * The newest daemon's `messageHistory(number)`, shown to the model: each
 * revision's text, whether it was finished (`done`) and when, without the
 * locators and ids of the raw envelopes.
 */
import { E } from '@endo/far';
import { packageText, type MessageRecord } from './message-record.js';

interface Revision {
  envelope?: MessageRecord;
  done?: unknown;
  date?: unknown;
}

export const readMessageHistory = async (powers: unknown, number: bigint): Promise<unknown> => {
  const revisions = (await E(
    powers as { messageHistory(number: bigint): Revision[] },
  ).messageHistory(number)) as unknown;
  if (!Array.isArray(revisions))
    throw Error('the daemon answered messageHistory with something that is not a list');
  return harden(
    (revisions as Revision[]).map((revision, index) => ({
      revision: index + 1,
      text: revision.envelope === undefined ? '' : packageText(revision.envelope),
      done: revision.done !== false,
      date: typeof revision.date === 'string' ? revision.date : '',
    })),
  );
};
harden(readMessageHistory);
