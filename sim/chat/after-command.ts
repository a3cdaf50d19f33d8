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
  const ahead: string[] = [];
  return harden({
    /**
     * A line just typed, to run after those before it: what the chain runs for it. `kind`: what
     * the line is; `shown`: it was shown already where it belongs (./typed-lines.ts took its
     * echo back).
     */
    queue(
      line: string,
      run: () => Promise<void>,
      typed: { kind: TypedKind; shown: boolean },
    ): () => Promise<void> {
      const { kind, shown } = typed;
      const before = ahead.at(-1);
      const waits = before !== undefined && line.trim() !== '' && !shown && !presenter.busy();
      if (waits) {
        screen.takeBackEcho(line);
        // Its first words name it (an MCP server's command line may be long).
        const named = before.trim().split(/\s+/).slice(0, 3).join(' ');
        screen.print('note', `waits › ${line}`, `(runs once ${named} is done)`);
      }
      if (line.trim() !== '') ahead.push(line);
      return async () => {
        // A command or an answer is echoed as the prompt echoes it (./typed-lines.ts), a message as sent.
        if (waits && kind !== 'message') screen.print('typed', PROMPT.trimEnd(), line);
        else if (waits) screen.print('you', 'you ›', line);
        // Typed in a turn (./typed-lines.ts took its echo back): echoed now, right before its output,
        // past the turn's summary as that output goes (issue 45, trial 15).
        else if (shown && kind !== 'message')
          presenter.pastTurnOver(() => screen.print('typed', PROMPT.trimEnd(), line));
        try {
          await run();
        } finally {
          if (line.trim() !== '') ahead.shift();
        }
      };
    },
  });
};
harden(makeAfterCommand);
