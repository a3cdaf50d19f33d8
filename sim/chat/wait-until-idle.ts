/**
 * For scripts and tests: the agent is idle when no turn runs, no tool call
 * is out, every message HOST sent it has been taken up, and nothing has
 * happened for a short quiet period (a granted proposal's notice, say,
 * reaches the agent a few ticks after the grant).
 */
import type { Presenter } from './presenter.js';
import type { Session } from './session.js';
import { hostMailWaiting } from './waiting-mail.js';

const QUIET_MS = 400;
const POLL_MS = 50;

/**
 * Nothing runs or is out, no mail HOST sent waits to be taken up, and no post of the person's
 * in a channel waits for the answer its mention is owed (./channel-echo.ts).
 */
export const agentIdle = (
  session: Pick<Session, 'mailHost' | 'guestName' | 'earlierMail'>,
  presenter: Presenter,
  channels: { owesAnswer(): boolean },
): boolean =>
  !presenter.busy() && hostMailWaiting(session, presenter).length === 0 && !channels.owesAnswer();
harden(agentIdle);

export const waitUntilIdle = (
  isIdle: () => boolean,
  presenter: Presenter,
  quietMs = QUIET_MS,
): Promise<void> =>
  new Promise(resolve => {
    const check = () => {
      if (isIdle() && Date.now() - presenter.lastActivity() >= quietMs) {
        resolve();
        return;
      }
      setTimeout(check, POLL_MS);
    };
    check();
  });
harden(waitUntilIdle);
