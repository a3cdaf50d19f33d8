/**
 * On a terminal, lines run one after another (./chat.ts). A line typed while the person's
 * previous command still runs, at an idle prompt (an /attach mcp whose server takes a minute
 * to start: docs/mcp.md), waits for it: shown at once as waiting for it, in the form a line
 * held by a Ctrl-C takes (./typed-lines.ts), and once it runs as sent (`you › …`), or as the
 * prompt echoes it (`› …`) when it is no message (a command, an answer). While a turn
 * runs, ./typed-lines.ts places a message instead; a command (or an answer) typed then is echoed
 * here as it runs, right before its output, so two typed in one go are not both echoed above both
 * outputs (issue 45, trial 15). A line typed before the command ahead of it has
 * begun (typed in one go with it: a fast typist, a terminal's type-ahead) waits for it too: it
 * was echoed where no prompt had been drawn again yet, and stayed there bare (issue 45).
 * A line typed in one go after an answer while a turn runs (`y` the moment `allow it?` shows,
 * then a message: trial 14) is placed once the answer has said what it did (`approved #4`), as
 * if typed after it: an answer's work is a moment's, and its outcome came after the next line's
 * `waits ›` before.
 */
import type { Presenter } from './presenter.js';
import { PROMPT, type Screen } from './screen.js';
import type { TypedKind } from './typed-lines.js';

export const makeAfterCommand = (options: {
  screen: Pick<Screen, 'print' | 'takeBackEcho'>;
  presenter: Pick<Presenter, 'busy' | 'pastTurnOver'>;
}) => {
  const { screen, presenter } = options;
  /** The lines queued and not yet done, in order (the first runs now or is about to). */
  const ahead: { line: string; kind: TypedKind }[] = [];
  return harden({
    /** The lines typed not yet done, in order: one waiting for the agent (a /forget mid-turn) among them. */
    ahead: (): readonly string[] => ahead.map(each => each.line),
    /**
     * A line just typed, to run after those before it: what the chain runs for it. `kind`: what
     * the line is; `place`: shows it where it belongs (./typed-lines.ts), true when it did
     * (its echo taken back: 'shown' when the terminal's echo is still on the screen).
     */
    queue(
      line: string,
      run: () => Promise<void>,
      typed: { kind: TypedKind; place: (echo: 'shown' | 'taken') => boolean },
    ): () => Promise<void> {
      const { kind } = typed;
      const before = ahead.at(-1)?.line;
      const entered = line.trim() !== '';
      const afterAnswer = entered && presenter.busy() && ahead.some(each => each.kind === 'answer');
      if (afterAnswer) screen.takeBackEcho(line);
      const shown = !afterAnswer && typed.place('shown');
      const waits = before !== undefined && entered && !shown && !afterAnswer && !presenter.busy();
      if (waits) {
        screen.takeBackEcho(line);
        // Its first words name it (an MCP server's command line may be long).
        const named = before.trim().split(/\s+/).slice(0, 3).join(' ');
        screen.print('note', `waits › ${line}`, `(runs once ${named} is done)`);
      }
      if (entered) ahead.push({ line, kind });
      return async () => {
        // Placed now that the answer is done; when no turn runs now, shown as one that waited.
        const placedLate = afterAnswer && typed.place('taken');
        const echoed = waits || (afterAnswer && !placedLate);
        // A command or an answer is echoed as the prompt echoes it (./typed-lines.ts), a message as sent.
        if (echoed && kind !== 'message') screen.print('typed', PROMPT.trimEnd(), line);
        else if (echoed) screen.print('you', 'you ›', line);
        // Placed by ./typed-lines.ts while a turn runs (its echo taken back): a command or an
        // answer is echoed now, right before its output, past the turn's summary as that output
        // goes (issue 45, trial 15).
        else if ((shown || placedLate) && kind !== 'message')
          presenter.pastTurnOver(() => screen.print('typed', PROMPT.trimEnd(), line));
        try {
          await run();
        } finally {
          if (entered) ahead.shift();
        }
      };
    },
  });
};
harden(makeAfterCommand);
export type AfterCommand = ReturnType<typeof makeAfterCommand>;
