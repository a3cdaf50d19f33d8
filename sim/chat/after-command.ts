/**
 * On a terminal, lines run one after another (./chat.ts). A line typed while the person's
 * previous command still runs, at an idle prompt (an /attach mcp whose server takes a minute
 * to start: docs/mcp.md), waits for it: shown at once as waiting for it, in the form a line
 * held by a Ctrl-C takes (./typed-lines.ts), and as sent (`you › …`) once it runs. While a turn
 * runs, ./typed-lines.ts places the line instead.
 */
import type { Presenter } from './presenter.js';
import type { Screen } from './screen.js';

export const makeAfterCommand = (options: {
  screen: Pick<Screen, 'print' | 'takeBackEcho'>;
  presenter: Pick<Presenter, 'busy'>;
}) => {
  const { screen, presenter } = options;
  /** The line whose command runs now, if any. */
  let running: string | undefined;
  return harden({
    /** A line just typed, to run after those before it: what the chain runs for it. */
    queue(line: string, run: () => Promise<void>): () => Promise<void> {
      const waits = running !== undefined && line.trim() !== '' && !presenter.busy();
      if (waits) {
        screen.takeBackEcho(line);
        // Its first words name it (an MCP server's command line may be long).
        const before = running!.trim().split(/\s+/).slice(0, 3).join(' ');
        screen.print('note', `waits › ${line}`, `(runs once ${before} is done)`);
      }
      return async () => {
        running = line;
        if (waits) screen.print('you', 'you ›', line);
        try {
          await run();
        } finally {
          running = undefined;
        }
      };
    },
  });
};
harden(makeAfterCommand);
