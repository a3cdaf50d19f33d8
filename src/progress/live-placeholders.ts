/**
 * Live progress in the chat on the newest daemon (docs/daemon-api.md): a
 * turn about the host's message starts with a short placeholder reply that
 * is edited as the turn goes and ends `done: true` with the answer, so the
 * chat shows one message filling in.
 *
 * The daemon's `reply` takes no `done` and returns nothing: the placeholder
 * goes out finished (no method of the daemon makes a new message unfinished:
 * docs/daemon-api.md says why no way around it exists), its number is found
 * in the agent's own inbox (the own copy replying to the origin, with the
 * placeholder's text), and the first edit, before anything else is written
 * to it, makes it `done: false`. The own copy must stay until the last edit
 * (`editMessage` edits it first, then the recipient's): `handlesOwnCopy`
 * keeps it from the own-copy dismissal, and it is dismissed after the last
 * edit. An own copy still `done: false` that no turn of this run holds was
 * left by a run that stopped mid-turn: it is finished with a line saying so.
 *
 * Only for the host's messages: another agent would read the placeholder,
 * which arrives finished before the first edit, as the answer.
 *
 * Posted only once the turn has taken LAL_PROGRESS_AFTER_MS (a second by
 * default): a turn answered sooner is answered with one plain reply, so live
 * progress puts no daemon round trip between the message and its answer
 * (the placeholder, its look-up and first edit cost a fast turn 1.3–1.7×
 * its time in a real daemon: issue 35); a slower turn shows it while the
 * model thinks, beside the model call, never before it.
 */
import { makeError, X } from '@endo/errors';
import { E } from '@endo/far';
import type { Clock } from '../lifecycle/clock.js';
import type { PowersRef } from '../daemon/guest-powers.js';
import type { Log } from '../log/log.js';
import type { DaemonAdapter } from '../daemon/daemon-adapter.js';
import type { AgentEvent } from '../events/agent-events.js';
import type { MessageRecord } from '../mail/message-record.js';
import type { Origin } from '../mail/origin.js';
import { makeBoundedSet } from '../lifecycle/bounded-collections.js';
import type { Speak } from '../builtin-tools/dispatch-builtin-tool.js';
import { FIRST_STATUS, makeStatusReader } from './progress-status.js';
import { makeThrottledEdits, textContent, type MessageContent } from './throttled-edits.js';
import { describeError } from '../../providers/describe-error.js';

const EDIT_GAP_MS = 1_000;
const CLOSED_REMEMBERED = 256;
const LEFT_BEHIND =
  'I stopped before I finished this (the agent was restarted). Send it again if you still need it.';

export interface Placeholder {
  /** Told of every event of the turn: shows what it is doing. */
  see(event: AgentEvent): void;
  /** Makes this the message's final form; false when it could not (then say it another way). */
  finish(content: MessageContent): Promise<boolean>;
  readonly finished: boolean;
}

export interface LivePlaceholders {
  /** A placeholder for a turn about this message, or undefined where there is none. */
  open(origin: Origin | undefined): Placeholder | undefined;
  /** Whether an own copy is a placeholder's (kept, or finished if left behind): not to be dismissed by the caller. */
  handlesOwnCopy(message: MessageRecord): boolean;
}

const textOf = (message: { strings?: unknown }): string =>
  Array.isArray(message.strings)
    ? message.strings.filter(part => typeof part === 'string').join('')
    : '';

/** Finishes an own copy a stopped run left unfinished (then it is dismissed). */
const finishLeftBehind = async (powers: PowersRef, number: bigint, log: Log) => {
  try {
    const { strings, edgeNames, petNames } = textContent(LEFT_BEHIND);
    await E(powers).editMessage(number, strings, edgeNames, petNames, { done: true });
  } catch (error) {
    log(`could not finish the unfinished message #${number}: ${describeError(error)}`);
  }
};

/** Runs `fire` after `ms` (at once for 0); returns what cancels it. */
const whenDue = (clock: Clock, ms: number, fire: () => void): (() => void) => {
  if (ms > 0) return clock.at(clock.now() + ms, fire);
  fire();
  return () => {};
};

export const makeLivePlaceholders = (options: {
  powers: PowersRef;
  daemon: DaemonAdapter;
  clock: Clock;
  log: Log;
  enabled: boolean;
  directEvaluation: boolean;
  /** How long a turn runs before its placeholder is posted (LAL_PROGRESS_AFTER_MS). */
  postAfterMs: number;
}): LivePlaceholders => {
  const { powers, daemon, clock, log } = options;
  // Own copies of placeholders being written, and those finished in this run (never taken for left behind).
  const active = new Set<bigint>();
  const closed = makeBoundedSet<bigint>(CLOSED_REMEMBERED);
  let claiming = 0;

  const dismissCopy = (number: bigint) => {
    active.delete(number);
    closed.add(number);
    return Promise.resolve(E(powers).dismiss(number)).catch(() => {});
  };

  /** Sends the placeholder and finds the number of its own copy. */
  const post = async (origin: Origin): Promise<bigint> => {
    claiming += 1;
    try {
      await E(powers).reply(origin.number, [FIRST_STATUS], [], []);
      // The daemon delivers the own copy before reply settles: it is in the list now.
      const inbox = (await E(powers).listMessages()) as MessageRecord[];
      const parent = inbox.find(message => message.number === origin.number);
      const copies = inbox.filter(
        message =>
          daemon.isOwn(message) &&
          message.type === 'package' &&
          typeof message.number === 'bigint' &&
          !active.has(message.number) &&
          (message as { replyTo?: unknown }).replyTo === parent?.messageId &&
          textOf(message) === FIRST_STATUS,
      );
      const copy = copies.at(-1);
      if (copy === undefined) throw makeError(X`its own copy was not found`);
      active.add(copy.number as bigint);
      return copy.number as bigint;
    } finally {
      claiming -= 1;
    }
  };

  const open = (origin: Origin | undefined): Placeholder | undefined => {
    if (
      !options.enabled ||
      !daemon.canEdit ||
      origin === undefined ||
      origin.sender !== daemon.names.host
    )
      return undefined;
    // Posted once the turn has run postAfterMs; a turn that finishes sooner never posts one.
    let posted: Promise<bigint> | undefined;
    let latest: string | undefined;
    let dropped = false;
    const statusOf = makeStatusReader({
      hostName: daemon.names.host,
      directEvaluation: options.directEvaluation,
    });
    const edits = makeThrottledEdits({
      clock,
      gapMs: EDIT_GAP_MS,
      write: async (content, done) => {
        const number = await posted!;
        await E(powers).editMessage(number, content.strings, content.edgeNames, content.petNames, {
          done,
        });
      },
      onError: error => log(`live progress for #${origin.number} stopped: ${describeError(error)}`),
    });
    const startPosting = () => {
      if (dropped || posted !== undefined) return;
      posted = post(origin);
      // A failure is told by the first edit (then the turn answers the usual way).
      posted.catch(() => {});
      edits.show(FIRST_STATUS);
      if (latest !== undefined) edits.show(latest);
    };
    const cancelPost = whenDue(clock, options.postAfterMs, startPosting);
    return {
      see(event) {
        const status = statusOf(event);
        if (status === undefined) return;
        if (posted === undefined) latest = status;
        else edits.show(status);
      },
      async finish(content) {
        if (posted === undefined) {
          // Never posted: the answer goes as a plain reply (false: say it another way).
          dropped = true;
          cancelPost();
          return false;
        }
        const written = await edits.finish(content);
        // The own copy goes once nothing more will be written to it.
        await posted.then(dismissCopy, () => {});
        return written;
      },
      get finished() {
        return dropped || edits.finished;
      },
    };
  };

  const closeLeftBehind = async (number: bigint) => {
    closed.add(number);
    await finishLeftBehind(powers, number, log);
    await dismissCopy(number);
  };

  return {
    open,
    handlesOwnCopy(message) {
      const { number } = message;
      if (typeof number !== 'bigint' || message.type !== 'package') return false;
      if (active.has(number)) return true;
      // Posted but not yet matched to its number.
      if (claiming > 0 && textOf(message) === FIRST_STATUS) return true;
      if ((message as { done?: unknown }).done === false && daemon.canEdit && !closed.has(number)) {
        void closeLeftBehind(number);
        return true;
      }
      return false;
    },
  };
};
harden(makeLivePlaceholders);

/**
 * The model's reply to the message (or send to its sender) while the
 * placeholder is unfinished becomes its final edit: one message in the chat.
 * Any other reply or send, or one the edit could not carry, goes as usual.
 */
export const speakThrough = (
  placeholder: Placeholder,
  origin: Origin,
  powers: PowersRef,
): Speak => ({
  async reply(number, strings, edgeNames, petNames) {
    if (
      number === origin.number &&
      !placeholder.finished &&
      (await placeholder.finish({ strings, edgeNames, petNames }))
    )
      return;
    await E(powers).reply(number, strings, edgeNames, petNames);
  },
  async send(recipient, strings, edgeNames, petNames) {
    if (
      recipient === origin.sender &&
      !placeholder.finished &&
      (await placeholder.finish({ strings, edgeNames, petNames }))
    )
      return;
    await E(powers).send(recipient, strings, edgeNames, petNames);
  },
});
harden(speakThrough);

/** The placeholder's last line when the turn's end said nothing to the sender itself. */
export const closingLine = (
  end: { stopReason: string; pending: boolean; hostName: string } | undefined,
): string => {
  if (end === undefined)
    return 'I could not finish this: the agent failed. Send it again if you still need it.';
  if (end.stopReason === 'cancelled')
    return 'I stopped before I finished this (the agent was cancelled). Send it again if you still need it.';
  if (end.pending)
    return `Waiting for ${end.hostName} to approve what I asked; I will go on once it is decided.`;
  return 'Done (my answer is in my other messages).';
};
harden(closingLine);
