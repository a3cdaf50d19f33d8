/**
 * Ctrl-C on a terminal (behaviour 10.2): it stops the turn in progress (the
 * session makes the agent again from its store); a second one while that is
 * under way, or one while the agent is idle, leaves.
 */
import { describeError } from '../../providers/describe-error.js';
import type { Presenter } from './presenter.js';
import type { Screen } from './screen.js';
import type { Session } from './session.js';

export const makeInterrupt = (options: {
  presenter: Presenter;
  screen: Screen;
  session: Session;
  persona: string;
  leave: (code: number) => Promise<unknown>;
}) => {
  const { presenter, screen, session, persona, leave } = options;
  let stopping = false;
  return async (): Promise<void> => {
    if (stopping || !presenter.busy()) {
      await leave(0);
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
