/**
 * What the person typed that waits for the agent: messages from HOST still
 * in the agent's inbox whose turn has not started (an earlier run's are not
 * owed one: `Session.earlierMail`). Read to know when the agent is idle, and
 * after Ctrl-C to say what waits, or to drop it when the person leaves
 * (./interrupt.ts).
 */
import { E } from '@endo/far';
import type { Presenter } from './presenter.js';
import type { Session } from './session.js';
import { packageText } from './package-text.js';

export interface WaitingLine {
  number: bigint;
  /** What the person typed (a package's strings, with `@edgeName` between them). */
  text: string;
}

export const hostMailWaiting = (
  { mailHost, guestName, earlierMail }: Pick<Session, 'mailHost' | 'guestName' | 'earlierMail'>,
  presenter: Pick<Presenter, 'startedMessages'>,
): WaitingLine[] => {
  const started = presenter.startedMessages();
  return mailHost
    .guest(guestName)
    .inbox()
    .filter(
      message =>
        message.from === mailHost.hostId &&
        !started.has(String(message.number)) &&
        !earlierMail.has(String(message.number)),
    )
    .map(message => ({
      number: message.number,
      text: message.type === 'package' ? packageText(message.strings, message.names) : message.type,
    }));
};
harden(hostMailWaiting);

/** Takes the lines out of the agent's inbox, so that no run takes them up. */
const dropHostMail = async (
  { mailHost, guestName }: Pick<Session, 'mailHost' | 'guestName'>,
  lines: readonly WaitingLine[],
): Promise<void> => {
  const powers = mailHost.guest(guestName).powers;
  for (const { number } of lines) await Promise.resolve(E(powers).dismiss(number)).catch(() => {});
};

/** The lines waiting for the agent of a session, and how to drop them (for ./interrupt.ts). */
export const waitingMailOf = (
  session: Pick<Session, 'mailHost' | 'guestName' | 'earlierMail'>,
  presenter: Pick<Presenter, 'startedMessages'>,
) =>
  harden({
    lines: () => hostMailWaiting(session, presenter),
    drop: (lines: readonly WaitingLine[]) => dropHostMail(session, lines),
  });
harden(waitingMailOf);

/**
 * What the person typed that a turn just started on (its title `#N from …`): HOST's message
 * N in the agent's inbox, read as ./typed-lines.ts keeps it; undefined for any other turn.
 */
export const hostMessageOfTurn = (
  session: Pick<Session, 'mailHost' | 'guestName'> | undefined,
  title: string,
): string | undefined => {
  const number = /^#(\d+) from /.exec(title)?.[1];
  if (number === undefined || session === undefined) return undefined;
  const { mailHost, guestName } = session;
  const message = mailHost
    .guest(guestName)
    .inbox()
    .find(each => String(each.number) === number && each.from === mailHost.hostId);
  return message?.type === 'package' ? packageText(message.strings, message.names) : undefined;
};
harden(hostMessageOfTurn);
