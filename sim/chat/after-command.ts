/**
 * On a terminal, lines run one after another (./chat.ts). A line typed while the person's
 * previous command still runs, at an idle prompt (an /attach mcp whose server takes a minute
 * to start: docs/mcp.md), waits for it: shown at once as waiting for it, in the form a line
 * held by a Ctrl-C takes (./typed-lines.ts), and once it runs as sent (`you › …`), or as the
 * prompt echoes it (`› …`) when it is no message (a command, an answer). While a turn
 * runs, ./typed-lines.ts places the line instead. A line typed before the command ahead of it has
 * begun (typed in one go with it: a fast typist, a terminal's type-ahead) waits for it too: it
 * was echoed where no prompt had been drawn again yet, and stayed there bare (issue 45).
 */
import type { Presenter } from './presenter.js';
import { PROMPT, type Screen } from './screen.js';
import type { TypedKind } from './typed-lines.js';

export const makeAfterCommand = (options: {
  screen: Pick<Screen, 'print' | 'takeBackEcho'>;
  presenter: Pick<Presenter, 'busy'>;
}) => {
  const { screen, presenter } = options;
  /** The lines queued and not yet done, in order (the first runs now or is about to). */
  const ahead: string[] = [];
  return harden({
    /** The lines typed not yet done, in order: one waiting for the agent (a /forget mid-turn) among them. */
    ahead: (): readonly string[] => [...ahead],
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
export type AfterCommand = ReturnType<typeof makeAfterCommand>;
