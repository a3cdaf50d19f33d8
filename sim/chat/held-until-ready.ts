/**
 * On a terminal, what is typed before the agent is ready (its greeting of
 * this run, or the wait for it ending: the same `ready` as piped input's,
 * ./piped-chat.ts) is held, commands as messages, and done in the order
 * typed once it is ready, each once the agent is idle, as piped lines are
 * (docs/behaviour.md 10.2). Meanwhile the prompt says the agent is starting,
 * and each line held is shown as waiting; when it goes it is shown as the
 * prompt echoes a line typed at an idle one (`› …`), which it is done as: one
 * screen shows one form for them (issue 45, trial 11). A command run at once while a message waited in the agent's
 * inbox came out before the greeting and before that message's answer.
 */
import { PROMPT, type Screen } from './screen.js';

export interface HeldUntilReady {
  /** A line just typed: true when it is held (the agent is not ready yet), false to go on as usual. */
  hold(line: string): boolean;
  /** Resolves once the agent is ready and every line held has been done. */
  readonly done: Promise<void>;
}

export const holdUntilReady = (options: {
  screen: Pick<Screen, 'print' | 'status' | 'takeBackEcho'>;
  persona: string;
  ready: Promise<unknown>;
  /** Resolves when the agent is idle: nothing running and no mail waiting for it. */
  idle: () => Promise<void>;
  /** Whether a turn runs (one an earlier run left in the inbox): its status is the presenter's then. */
  busy: () => boolean;
  /** Does one line (a message mailed, a command run). */
  run: (line: string) => Promise<void>;
  /** The lines held and not yet done, in order, filled here: what leaving drops, said by the caller. */
  unsent: string[];
}): HeldUntilReady => {
  const { screen, persona, ready, idle, busy, run, unsent } = options;
  let starting = true;
  screen.status(`${persona} is starting…`);
  const done = ready.then(async () => {
    starting = false;
    if (!busy()) screen.status(undefined);
    while (unsent.length > 0) {
      await idle();
      // Shifted only now: a line still waiting is one leaving drops.
      const line = unsent.shift()!;
      screen.print('typed', PROMPT.trimEnd(), line);
      await run(line);
    }
  });
  return harden({
    hold(line) {
      if (!starting) return false;
      if (line.trim() === '') return true;
      screen.takeBackEcho(line);
      unsent.push(line);
      screen.print('note', `waits › ${line}`, `(${persona} is starting; it goes once it is ready)`);
      return true;
    },
    done,
  });
};
harden(holdUntilReady);
