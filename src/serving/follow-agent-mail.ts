/**
 * Follows the agent's mail for the serving loop: others' messages become
 * work; the agent's own copies are dismissed (they would fill the inbox
 * forever) except the copies of pending asks (asks/pending-asks.ts
 * claims them; eval-proposals are never dismissed here), and live-progress
 * placeholders, kept until their last edit. Following that fails is tried
 * again, less and less often; a mailbox that does not load is reported.
 * `caughtUp` settles once the stream has gone quiet and every message it
 * gave is in the queue: the serving loop waits for it before serving a
 * sender who is not first, so a HOST's message that arrives behind a flood
 * of another sender's is served next (docs/behaviour.md 9.3).
 */
import type { PowersRef } from '../daemon/guest-powers.js';
import type { Log } from '../log/log.js';
import { followMailWithRetry } from '../mail/follow-mail-with-retry.js';
import { isMailboxLoadFailure, reportMailboxLoadFailure } from '../mail/mailbox-load-failure.js';
import { isProposalType, messageKey, type MessageRecord } from '../mail/message-record.js';
import type { AgentParts } from './agent-parts.js';
import { safeDismiss } from './finish-message.js';
import { describeError } from '../../providers/describe-error.js';
import { type Work } from './work.js';

// The stream is taken to have caught up once no message came for this long: messages in a
// backlog follow one another within a millisecond or two, and a busy process (a garbage
// collection) can pause that for tens of milliseconds.
const QUIET_MS = 100;
// A stream that never goes quiet holds others' turns back at most this long each.
const MOST_MS = 5_000;

const pause = (ms: number) =>
  new Promise<void>(resolve => {
    setTimeout(resolve, ms);
  });

export const followAgentMail = (options: {
  powers: PowersRef;
  parts: Pick<AgentParts, 'daemon' | 'proposals' | 'progress' | 'asks' | 'laneOf' | 'revisions'>;
  log: Log;
  redact: (text: string) => string;
  push: (work: Work) => void;
}) => {
  const { powers, parts, log, redact } = options;
  const { daemon, proposals, progress, asks, laneOf } = parts;
  // Each message goes to its sender's lane once its sender is known; one chain keeps them in order.
  let arrivals: Promise<void> = Promise.resolve();
  let lastArrival = Number.NEGATIVE_INFINITY;
  const caughtUp = async (): Promise<void> => {
    const until = Date.now() + MOST_MS;
    for (;;) {
      // eslint-disable-next-line no-await-in-loop -- every message given so far reaches its lane
      await arrivals;
      const quietFor = Date.now() - lastArrival;
      if (quietFor >= QUIET_MS || Date.now() >= until) return;
      // eslint-disable-next-line no-await-in-loop -- until the stream has been quiet a while
      await pause(QUIET_MS - quietFor);
    }
  };
  const arrive = (message: MessageRecord) => {
    lastArrival = Date.now();
    // The gate knows each message's latest showing before any waits in a lane, and drops a
    // repeat of it (the daemons show a message twice: src/mail/revision-gate.ts).
    if (!parts.revisions.admit(messageKey(message), message)) return;
    arrivals = arrivals.then(() =>
      laneOf(message).then(
        lane => options.push({ kind: 'mail', message, lane }),
        () => options.push({ kind: 'mail', message }),
      ),
    );
  };
  const follower = followMailWithRetry({
    open: daemon.follow,
    isOwn: daemon.isOwn,
    log,
    onFailure: async (error, retryInMs) => {
      log(
        `following mail failed: ${redact(describeError(error))}; trying again in ${retryInMs} ms, then less and less often`,
      );
      if (isMailboxLoadFailure(error))
        await reportMailboxLoadFailure({
          powers,
          log,
          pendingSources: proposals.pendingSources(),
          retrying: true,
        });
    },
    onResume: failed => log(`following mail again after ${failed} failed attempt(s)`),
    onMail: arrive,
    onOwn: message => {
      // The copy of an ask still waiting for its answer stays (a restart follows it).
      if (asks.claimOwnCopy(message)) return;
      // A live-progress placeholder stays until its last edit.
      if (progress.handlesOwnCopy(message)) return;
      if (!isProposalType(message.type)) void safeDismiss(powers, message.number);
    },
  });
  return { ...follower, caughtUp };
};
harden(followAgentMail);
