/**
 * Where a line typed at the terminal is shown (docs/behaviour.md 10.2). While
 * nothing runs, the terminal's own echo is it; while a turn runs, a message is
 * shown at once as waiting (`waits › …`), and as sent after that turn's "turn
 * over" line (`you › …`), and a command at once,
 * above the turn's live status, so its output follows its echo (out of the
 * way of a turn's answer and summary: ./presenter.ts `pastTurnOver`). From a Ctrl-C until the
 * agent goes on (./interrupt.ts), a message typed waits: it is never shown as
 * sent. One typed before the stop said what waits is named by that line; one
 * typed after it is shown as waiting at once; each is shown as sent (`you ›`)
 * only once the agent goes on, and not at all when a second Ctrl-C drops it.
 */
import type { Presenter } from './presenter.js';
import type { Screen } from './screen.js';

export const makeTypedLines = (options: {
  presenter: Pick<Presenter, 'busy' | 'afterTurn' | 'pastTurnOver'>;
  screen: Pick<Screen, 'print' | 'takeBackEcho'>;
  persona: string;
}) => {
  const { presenter, screen, persona } = options;
  /** From a Ctrl-C until the agent goes on: the messages typed, and whether the stop has named those waiting. */
  let held: { lines: string[]; named: boolean } | undefined;

  const sent = (line: string) => screen.print('you', 'you ›', line);
  /** A message typed while the agent is held: it waits (named now, once the stop has said what waits). */
  const waits = (line: string) => {
    if (held === undefined) {
      sent(line);
      return;
    }
    held.lines.push(line);
    if (held.named)
      screen.print(
        'note',
        `waits › ${line}`,
        `(goes to ${persona} once it goes on; Ctrl-C again leaves and drops it)`,
      );
  };

  return harden({
    /** A line just typed; `message`: it is mailed to the agent (not a command). */
    place(line: string, message: boolean): void {
      if (line.trim() === '') return;
      if (held !== undefined && message) {
        screen.takeBackEcho(line);
        // A turn still ending (its summary not yet shown) goes first, as for any line typed in a turn.
        presenter.afterTurn(() => waits(line));
        return;
      }
      if (!presenter.busy()) return;
      screen.takeBackEcho(line);
      if (!message) {
        presenter.pastTurnOver(() => sent(line));
        return;
      }
      // Taken at once, said at once (in the form a line held by a Ctrl-C takes), sent after the turn.
      presenter.pastTurnOver(() =>
        screen.print('note', `waits › ${line}`, `(goes to ${persona} once its turn is over)`),
      );
      presenter.afterTurn(() => waits(line));
    },
    /** Ctrl-C stopped the agent: what is typed from now on waits. */
    hold(): void {
      held ??= { lines: [], named: false };
    },
    /** The stop has said what waits (./interrupt.ts): a line typed from now on says so itself. */
    named(): void {
      if (held !== undefined) held.named = true;
    },
    /** The agent goes on: each line that waited goes to it now, shown as sent. */
    release(): void {
      const lines = held?.lines ?? [];
      held = undefined;
      for (const line of lines) sent(line);
    },
  });
};
harden(makeTypedLines);
export type TypedLines = ReturnType<typeof makeTypedLines>;
