/**
 * `npm start` with its input not a terminal (a script piped in): one line at
 * a time, each once the agent is idle, after the greeting (or a wait for it).
 */
import type { Interface } from 'node:readline';
import { parseCommand } from './commands.js';
import type { Presenter } from './presenter.js';
import { runCommand, type CommandContext } from './run-command.js';
import type { Screen } from './screen.js';

export interface PipedChatOptions {
  screen: Screen;
  presenter: Presenter;
  context: CommandContext;
  /** Resolves when the agent is idle: nothing running and no mail waiting for it. */
  idle: () => Promise<void>;
  /** Resolves when the first line should be read (the greeting came, or the wait for it ended). */
  ready: Promise<unknown>;
  /** The lines read and not yet sent, in order, filled here: what leaving drops, said by the caller. */
  unsent: string[];
}

export const runPipedChat = async (
  readline: Interface,
  { screen, presenter, context, idle, ready, unsent: lines }: PipedChatOptions,
): Promise<void> => {
  let ended = false;
  let wake: () => void = () => {};
  readline.on('line', line => {
    lines.push(line);
    wake();
  });
  readline.on('close', () => {
    ended = true;
    wake();
  });
  await ready;
  for (;;) {
    if (lines.length === 0 && !ended) {
      await new Promise<void>(resolve => {
        wake = resolve;
      });
      continue;
    }
    if (lines.length === 0) break;
    await idle();
    // Unsent until now: a line still waiting for the agent is shown as sent only once it is.
    const line = lines.shift()!;
    const command = parseCommand(line);
    if (command.kind === 'empty') continue;
    screen.print('you', 'you ›', line);
    await runCommand(command, context);
    presenter.touch();
  }
  await idle();
};
harden(runPipedChat);
