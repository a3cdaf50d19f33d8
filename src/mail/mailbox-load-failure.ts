/**
 * The daemon at f0a46042a cannot reload a mailbox that holds an eval-proposal
 * message after a restart: loading it throws `Unknown message formula type`,
 * and every call that needs that mailbox fails with it. The agent cannot
 * repair that itself, so it tells its HOST, once, in plain words what
 * happened and what to do; when it cannot even send (its own mailbox is the
 * one that fails), it writes the same words to the worker log.
 */
import { E } from '@endo/far';
import type { PowersRef } from '../daemon/guest-powers.js';
import type { Log } from '../log/log.js';
import { cut } from './message-record.js';
import { describeError } from '../../providers/describe-error.js';
import { REVIVAL_LONGEST_WAIT_MS } from '../lifecycle/revival-backoff.js';

const DAEMON_ERROR = 'Unknown message formula type';
const SOURCE_PREVIEW_CHARS = 80;

export const isMailboxLoadFailure = (error: unknown): boolean =>
  describeError(error).includes(DAEMON_ERROR);
harden(isMailboxLoadFailure);

/**
 * One paragraph: what happened, which proposals are pending, how to settle
 * them, how to recover; `retrying` says whether the agent keeps following
 * (its mail) or stopped (its powers did not load: the daemon makes it again
 * at its next start, as it is pinned).
 */
const mailboxLoadFailureText = (pendingSources: readonly string[], retrying: boolean): string => {
  const pending =
    pendingSources.length === 0
      ? 'an eval-proposal message in my mailbox or yours (endo inbox lists yours)'
      : `the eval-proposal${pendingSources.length === 1 ? '' : 's'} I made: ${pendingSources
          .map(source => JSON.stringify(cut(source.replace(/\s+/g, ' '), SOURCE_PREVIEW_CHARS)))
          .join(', ')}`;
  const meanwhile = retrying
    ? 'I keep trying to follow my mail meanwhile.'
    : `I stopped; the daemon makes me again, and I wait longer each time before I try (at most ${REVIVAL_LONGEST_WAIT_MS / 60_000} minutes), so it is not kept reviving me.`;
  return [
    `I cannot follow my mail: the Endo daemon fails to load a mailbox (${DAEMON_ERROR}).`,
    `This daemon cannot reload a mailbox that holds an eval-proposal after a restart; pending: ${pending}.`,
    "Before the next restart settle every eval-proposal: grant it (endo eval 'E(host).grantEvaluate(N)' host:AGENT,",
    'N its number in endo inbox) or reject it (see "Grant or reject a proposal" in docs/daemon-guide.md of lal-fae), then dismiss it (endo dismiss N);',
    'I dismiss my copy once it is settled.',
    'If the daemon already fails to load a mailbox, follow "Recovering from a pending eval-proposal" in docs/daemon-guide.md of lal-fae.',
    meanwhile,
  ].join(' ');
};

/** Tells HOST; if that fails too, writes the same words to the log. */
export const reportMailboxLoadFailure = async (options: {
  powers: PowersRef;
  log: Log;
  pendingSources: readonly string[];
  /** Whether the agent keeps trying to follow its mail (else it stopped). */
  retrying: boolean;
}): Promise<'told HOST' | 'logged'> => {
  const text = mailboxLoadFailureText(options.pendingSources, options.retrying);
  try {
    await E(options.powers).send('HOST', [text], [], []);
    return 'told HOST';
  } catch {
    options.log(text);
    return 'logged';
  }
};
harden(reportMailboxLoadFailure);
