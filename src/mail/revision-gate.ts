/**
 * The newest daemon shows an edited message again under the same number
 * (followMessages), with `done: false` while its sender is still writing it.
 * This gate decides what each showing means for the agent:
 * - `wait`: not finished yet (`done: false`) and not answered: no turn;
 * - `serve`: finished and not answered: one turn, with this (final) text;
 * - `amended`: a revision of a message answered in this run: no turn of its
 *   own, the next turn's notice says so (see `takeAmendedNote`);
 * - `replayed`: the same showing again (a restart or a reconnect): as before,
 *   a message already answered is only dismissed.
 * The handled keys (memory) mean "answered": an unfinished message is only
 * waited for, never marked handled.
 *
 * Showings wait in the work queue behind other turns, so the gate also keeps
 * the latest showing of each message as the mail arrives (`admit`): a showing
 * with a later one behind it is `superseded` (that later one decides, in its
 * own turn), and a message its sender took back (`done: false`) while its
 * turn ran is not yet answered in its final form (`takenBack`): it is neither
 * marked handled nor dismissed, so the sender's final edit reaches it and is
 * answered.
 *
 * Every showing enters through `admit`, which drops one that repeats the
 * message's latest showing (or, once that was answered, the one answered):
 * both daemons' followMessages give twice a message delivered while the
 * backlog is read, and a stream followed again (a reconnect, a restart)
 * shows every waiting message anew (docs/daemon-api.md). Dropping a repeat
 * of the latest form never changes which form is current, so a message
 * waits once and is counted once; `classify` still gives one turn per
 * message should a repeat get past the bound.
 */
import type { MessageRecord } from './message-record.js';

export type Showing = 'wait' | 'serve' | 'amended' | 'replayed' | 'superseded';

/** Answered messages remembered for telling a revision from a replay; bounded for long runs. */
const REMEMBERED = 256;

const fingerprint = (message: MessageRecord): string =>
  JSON.stringify([
    String(message.date ?? ''),
    message.strings ?? null,
    message.names ?? null,
    message.done ?? true,
  ]);

export const makeRevisionGate = () => {
  /** Fingerprint of each message answered in this run, by key. */
  const answered = new Map<string, string>();
  const amended = new Set<bigint>();
  /** The latest showing of each message the follower gave, by key (bounded: the oldest go first). */
  const latest = new Map<string, MessageRecord>();
  /** Keys of messages shown `done: false` since their last turn began. */
  const retracted = new Set<string>();
  const newerThan = (key: string | undefined, message: MessageRecord) => {
    const last = key === undefined ? undefined : latest.get(key);
    return last !== undefined && last !== message ? last : undefined;
  };
  return {
    /**
     * Told of each showing as it arrives, before it waits in the queue: false for a repeat of
     * the message's current form (its latest showing, else the one answered), to be dropped.
     */
    admit(key: string | undefined, message: MessageRecord): boolean {
      if (key === undefined) return true;
      const current = latest.get(key);
      const shown = current === undefined ? answered.get(key) : fingerprint(current);
      if (shown === fingerprint(message)) return false;
      latest.delete(key);
      latest.set(key, message);
      if (latest.size > REMEMBERED) latest.delete(latest.keys().next().value as string);
      if (message.done === false) {
        retracted.add(key);
        if (retracted.size > REMEMBERED)
          retracted.delete(retracted.values().next().value as string);
      }
      return true;
    },
    /** Whether its sender took the message back (a showing with `done: false`) since its turn began. */
    takenBack(key: string | undefined): boolean {
      return key !== undefined && retracted.has(key);
    },
    classify(key: string | undefined, message: MessageRecord, handled: boolean): Showing {
      if (key === undefined) return 'serve';
      // A later showing waits behind this one: it is the message's current form, and decides.
      if (newerThan(key, message) !== undefined) return 'superseded';
      if (handled) {
        const seen = answered.get(key);
        if (seen === undefined || seen === fingerprint(message)) return 'replayed';
        answered.set(key, fingerprint(message));
        if (typeof message.number === 'bigint') amended.add(message.number);
        return 'amended';
      }
      if (message.done === false) return 'wait';
      retracted.delete(key);
      return 'serve';
    },
    /** Records the showing that was answered, to tell later revisions from replays. */
    answered(key: string | undefined, message: MessageRecord) {
      if (key === undefined) return;
      if (latest.get(key) === message) latest.delete(key);
      answered.delete(key);
      answered.set(key, fingerprint(message));
      if (answered.size > REMEMBERED) answered.delete(answered.keys().next().value as string);
    },
    /** "Message #N was amended …" for the next notice, once; empty when nothing was. */
    takeAmendedNote(): string {
      if (amended.size === 0) return '';
      const numbers = [...amended].map(number => `#${number}`);
      amended.clear();
      const list = numbers.join(', ');
      return `Since you answered it, ${numbers.length === 1 ? `message ${list} was amended` : `messages ${list} were amended`} by its sender (read the revisions with messageHistory if it matters).\n\n`;
    },
  };
};
harden(makeRevisionGate);
