/**
 * Ctrl-C on a terminal (behaviour 10.2): it stops the turn in progress (the
 * session makes the agent again from its store); a second press within
 * LEAVE_WINDOW_MS of the first leaves, whatever the agent took up meanwhile
 * (the next queued message, an outcome). A press while the agent is idle
 * says in one line how to leave: a second press, or /quit.
 */
import { describeError } from '../../providers/describe-error.js';
import type { Presenter } from './presenter.js';
import type { Screen } from './screen.js';
import type { Session } from './session.js';

/** Two presses this close are one wish to leave. */
export const LEAVE_WINDOW_MS = 2_500;
harden(LEAVE_WINDOW_MS);

export const makeInterrupt = (options: {
  presenter: Pick<Presenter, 'busy' | 'turnInProgress'>;
  screen: Pick<Screen, 'status' | 'print'>;
  session: Pick<Session, 'stopTurn'>;
  persona: string;
  leave: (code: number) => Promise<unknown>;
  now?: () => number;
}) => {
  const { presenter, screen, session, persona, leave, now = Date.now } = options;
  let stopping = false;
  let lastPress = Number.NEGATIVE_INFINITY;
  return async (): Promise<void> => {
    const pressed = now();
    const again = pressed - lastPress < LEAVE_WINDOW_MS;
    lastPress = pressed;
    if (stopping || again) {
      await leave(0);
      return;
    }
    // Nothing to stop: one press is no wish to leave yet (a terminal's habit), so say how.
    if (!presenter.busy()) {
      screen.print('note', `(Ctrl-C again within ${LEAVE_WINDOW_MS / 1000} s, or /quit, leaves)`);
      return;
    }
    stopping = true;
    screen.status(undefined);
    screen.print('note', `Stopping ${persona}'s turn (Ctrl-C again leaves)…`);
    try {
      await session.stopTurn(presenter.turnInProgress());
      screen.print('note', `${persona} stopped; what it kept is still there. Go on.`);
    } catch (error) {
      screen.print('error', `could not stop the turn: ${describeError(error)}`);
    } finally {
      stopping = false;
    }
  };
};
harden(makeInterrupt);
