/**
 * Where a line typed at the terminal is shown (docs/behaviour.md 10.2). While
 * nothing runs, the terminal's own echo is it; while a turn runs, a message is
 * shown at once as waiting (`waits › …`), and as sent (`you › …`) when its own
 * turn begins (`started`), so several typed in one turn each keep saying they
 * wait until the agent takes them up; a command is shown as it runs (./after-command.ts),
 * above the turn's live status, right before its output, so two typed in one go each have
 * their output after their own echo (out of the
 * way of a turn's answer and summary: ./presenter.ts `pastTurnOver`). From a Ctrl-C until the
 * agent goes on (./interrupt.ts), a message typed waits: it is never shown as
 * sent before its turn. One typed before the stop said what waits is named by that line; one
 * typed after it is shown as waiting at once; each is shown as sent (`you ›`)
 * as its turn begins, once the agent goes on, and not at all when a second Ctrl-C drops it.
 * An answer to what waits (`y` for an approval: ./answer-approval.ts) is no message: it is
 * shown at once as the person's, as a command is, never as waiting for a turn it does not start.
 * Neither is said to the agent: both are echoed as the prompt echoes them at an idle one (`› …`),
 * busy or idle; `you ›` is for a message sent (issue 45, trial 14: `you › /inbox` while busy).
 */
import { parseCommand } from './commands.js';
import type { Presenter } from './presenter.js';
import type { Screen } from './screen.js';

/** What a typed line is: mailed to the agent, a slash command, or an answer to what waits (not mailed). */
export type TypedKind = 'message' | 'command' | 'answer';

export const makeTypedLines = (options: {
  presenter: Pick<Presenter, 'busy' | 'turnRunning' | 'afterTurn' | 'pastTurnOver'>;
  screen: Pick<Screen, 'print' | 'takeBackEcho'>;
  persona: string;
}) => {
  const { presenter, screen, persona } = options;
  /** From a Ctrl-C until the agent goes on: whether the stop has named the messages waiting. */
  let held: { named: boolean } | undefined;
  /** The messages shown as waiting, in the order typed: each line and the text it was mailed as. */
  const waiting: { line: string; text: string }[] = [];
  /**
   * Messages typed while nothing ran, mailed, whose turn has not begun: lines typed in quick
   * succession (or pasted) come before the first one's turn does, and wait as if it ran.
   */
  const notBegun: string[] = [];

  const sent = (line: string) => screen.print('you', 'you ›', line);

  return harden({
    /**
     * A line just typed, and what it is; true when it is shown here (its echo taken back).
     * `echo`: 'taken' when the terminal's echo of it was taken back already (./after-command.ts
     * places a line typed after an answer once the answer is done).
     */
    place(line: string, kind: TypedKind, echo: 'shown' | 'taken' = 'shown'): boolean {
      if (line.trim() === '') return false;
      const takeBack = () => {
        if (echo === 'shown') screen.takeBackEcho(line);
      };
      const message = kind === 'message';
      const parsed = parseCommand(line);
      const text = parsed.kind === 'message' ? parsed.text : line;
      if (held !== undefined && message) {
        takeBack();
        waiting.push({ line, text });
        // A turn still ending (its summary not yet shown) goes first, as for any line typed in a turn;
        // before the stop has said what waits, that line names it.
        presenter.afterTurn(() => {
          if (held?.named === true && waiting.some(each => each.line === line))
            screen.print(
              'note',
              `waits › ${line}`,
              `(goes to ${persona} once it goes on; Ctrl-C again leaves and drops it)`,
            );
        });
        return true;
      }
      if (!presenter.busy() && notBegun.length === 0) {
        if (message) notBegun.push(text);
        return false;
      }
      takeBack();
      // A command's echo is printed as it runs, right before its output (./after-command.ts): two
      // typed in one go each show their output after their own echo, not both echoes first.
      if (!message) return true;
      waiting.push({ line, text });
      // What it waits for, said as it is: a turn running, else a message whose turn has not begun,
      // else nothing (busy with a call approved after its turn, or a turn's summary to come:
      // issue 45, trial 15).
      const waitsFor = presenter.turnRunning()
        ? `goes to ${persona} once its turn is over`
        : notBegun.length > 0
          ? `${persona} takes it up after the message before it`
          : `${persona} takes it up next`;
      // Taken at once, said at once (in the form a line held by a Ctrl-C takes), sent as its turn starts.
      presenter.pastTurnOver(() => screen.print('note', `waits › ${line}`, `(${waitsFor})`));
      return true;
    },
    /**
     * A turn began on a message of the person's, mailed as `text` (undefined for any other
     * turn): the first line waiting that was mailed so is shown as sent now. Told after the
     * presenter saw the turn start (./chat.ts), so what ended before it is shown first.
     */
    started(text: string | undefined): void {
      if (text === undefined) return;
      const begun = notBegun.indexOf(text);
      if (begun >= 0) notBegun.splice(begun, 1);
      const at = waiting.findIndex(each => each.text === text);
      if (at < 0) return;
      sent(waiting[at]!.line);
      waiting.splice(at, 1);
    },
    /** Ctrl-C stopped the agent: what is typed from now on waits. */
    hold(): void {
      held ??= { named: false };
    },
    /** The stop has said what waits (./interrupt.ts): a line typed from now on says so itself. */
    named(): void {
      if (held !== undefined) held.named = true;
    },
    /** The agent goes on: each line that waited is shown as sent as its own turn begins. */
    release(): void {
      held = undefined;
    },
  });
};
harden(makeTypedLines);
export type TypedLines = ReturnType<typeof makeTypedLines>;
