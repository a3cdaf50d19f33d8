/**
 * Ctrl-C on a terminal (behaviour 10.2): it stops the turn in progress, and
 * the agent is made again from its store only once LEAVE_WINDOW_MS have
 * passed since the press, so a second press within them leaves before the
 * agent takes up anything that waits for it (a line typed meanwhile, the next
 * message, an outcome): the lines the person typed are dropped, and said to
 * be. A press while the agent is idle says in one line how to leave: a
 * second press, or /quit. The stop speaks once the turn's own last lines (what
 * had streamed, its summary) are on the screen, and what the person types
 * from the press on is shown as waiting until the agent goes on (./typed-lines.ts).
 * As in a shell, a press with a half-typed line only discards it, whatever
 * runs (during a turn it says so in one line: the next press stops the turn;
 * in a stop under way the next one leaves), so leaving takes two presses with
 * nothing half typed; and a press stops a command of the person's under way
 * (an /attach mcp starting its server), which then says so itself.
 */
import { describeError } from '../../providers/describe-error.js';
import type { Presenter } from './presenter.js';
import type { Screen } from './screen.js';
import type { Session } from './session.js';
import type { TypedLines } from './typed-lines.js';
import type { WaitingLine } from './waiting-mail.js';

/** Two presses this close are one wish to leave. */
export const LEAVE_WINDOW_MS = 2_500;
harden(LEAVE_WINDOW_MS);

/** How long the stop waits for the stopped turn's last lines before it speaks anyway. */
const TURN_OVER_WAIT_MS = 5_000;

const PREVIEW_CHARS = 60;

/** The lines, each quoted on one line and cut. */
const quoted = (texts: readonly string[]): string =>
  texts
    .map(text => {
      const flat = text.replace(/\s+/g, ' ').trim();
      return JSON.stringify(
        flat.length > PREVIEW_CHARS ? `${flat.slice(0, PREVIEW_CHARS - 1)}…` : flat,
      );
    })
    .join(', ');

/** What leaving says of the lines typed that the agent never took up (a terminal's or a piped run's). */
export const droppedLine = (persona: string, texts: readonly string[]): string =>
  `dropped, as you left before ${persona} took it up: ${quoted(texts)}`;
harden(droppedLine);

const sleep = (ms: number) => new Promise<void>(resolve => setTimeout(resolve, ms));

/** Resolves once the stopped turn's last lines are shown, or after `ms` (a turn that never says it ended). */
const turnShownOver = (presenter: Pick<Presenter, 'afterTurn'>, ms: number) =>
  new Promise<void>(resolve => {
    const timer = setTimeout(resolve, ms);
    presenter.afterTurn(() => {
      clearTimeout(timer);
      resolve();
    });
  });

export const makeInterrupt = (options: {
  presenter: Pick<Presenter, 'busy' | 'turnInProgress' | 'afterTurn' | 'approvedRun'>;
  screen: Pick<Screen, 'status' | 'print'>;
  session: Pick<Session, 'stopTurn' | 'goOn'>;
  /** What the person typed that waits for the agent (./waiting-mail.ts), and how to drop it. */
  waiting: {
    lines(): readonly WaitingLine[];
    drop(lines: readonly WaitingLine[]): Promise<void>;
  };
  /**
   * The lines typed not yet done (./after-command.ts): a command waiting for the agent (a /forget
   * typed mid-turn runs between turns: once the agent goes on, or never if the person leaves).
   */
  notDone?: () => readonly string[];
  /** Where the lines typed are shown: waiting from the press until the agent goes on. */
  typed: Pick<TypedLines, 'hold' | 'named' | 'release'>;
  persona: string;
  leave: (code: number) => Promise<unknown>;
  /** The line typed at the prompt, not yet entered: discarded, true when there was one. */
  halfTyped?: { discard(): boolean };
  /** Stops the person's command under way, if it can be stopped: true when there was one. */
  command?: { stop(): boolean };
  now?: () => number;
  wait?: (ms: number) => Promise<void>;
  /** How long the stop waits for the stopped turn's last lines. */
  turnOverWaitMs?: number;
}) => {
  const { presenter, screen, session, waiting, typed, persona, leave } = options;
  const { now = Date.now, wait = sleep, turnOverWaitMs = TURN_OVER_WAIT_MS } = options;
  /** From the first press until the agent goes on again (or the person left). */
  let stopping = false;
  let left = false;
  let lastPress = Number.NEGATIVE_INFINITY;

  /** What waits: the messages in the agent's inbox, then the lines typed not yet done, each once. */
  const waitingTexts = (lines: readonly WaitingLine[]): string[] => [
    ...new Set([...lines.map(({ text }) => text), ...(options.notDone?.() ?? [])]),
  ];

  const leaveDropping = async () => {
    left = true;
    const lines = waiting.lines();
    const texts = waitingTexts(lines);
    if (lines.length > 0) await waiting.drop(lines);
    if (texts.length > 0) screen.print('note', droppedLine(persona, texts));
    await leave(0);
  };

  return async (): Promise<void> => {
    const pressed = now();
    // A half-typed line is all a press takes, whatever runs: the next press is a first one (it
    // stops a turn), or, in a stop under way, the second (it leaves).
    if (options.halfTyped?.discard() === true) {
      if (stopping) screen.print('note', '(the half-typed line is discarded; Ctrl-C again leaves)');
      else {
        lastPress = Number.NEGATIVE_INFINITY;
        if (presenter.busy())
          screen.print(
            'note',
            `(the half-typed line is discarded; Ctrl-C again stops ${persona}'s turn)`,
          );
      }
      return;
    }
    const again = pressed - lastPress < LEAVE_WINDOW_MS;
    lastPress = pressed;
    if (stopping || again) {
      await leaveDropping();
      return;
    }
    // Nothing to stop: one press is no wish to leave yet (a terminal's habit), so say how.
    if (!presenter.busy()) {
      if (options.command?.stop() === true) return;
      screen.print('note', `(Ctrl-C again within ${LEAVE_WINDOW_MS / 1000} s, or /quit, leaves)`);
      return;
    }
    stopping = true;
    typed.hold();
    screen.status(undefined);
    // What it stops: the turn, or a call approved that outlived its turn (issue 45, trial 15).
    const approved = presenter.approvedRun();
    const what = approved === undefined ? `${persona}'s turn` : `the approved ${approved} call`;
    screen.print('note', `Stopping ${what} (Ctrl-C again leaves)…`);
    try {
      await session.stopTurn(presenter.turnInProgress());
      await turnShownOver(presenter, turnOverWaitMs);
      const texts = waitingTexts(waiting.lines());
      const then =
        texts.length === 0
          ? 'Go on.'
          : `What you typed meanwhile waits ${LEAVE_WINDOW_MS / 1000} s, then goes to ${persona} (Ctrl-C again leaves and drops it): ${quoted(texts)}`;
      if (!left) screen.print('note', `${persona} stopped; what it kept is still there. ${then}`);
    } catch (error) {
      screen.print('error', `could not stop the turn: ${describeError(error)}`);
    }
    typed.named();
    // The rest of the window: a second press in it leaves before the agent takes anything up.
    const rest = pressed + LEAVE_WINDOW_MS - now();
    if (rest > 0) await wait(rest);
    try {
      if (!left) await session.goOn();
    } catch (error) {
      screen.print('error', `could not make ${persona} again: ${describeError(error)}`);
    } finally {
      stopping = false;
      // The hold is over either way: what waited is in the agent's inbox (none of it, once left).
      if (!left) typed.release();
    }
  };
};
harden(makeInterrupt);
