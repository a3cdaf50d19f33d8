/**
 * Leaving before the chat can (docs/behaviour.md 10.2): from the first moment of `npm start`
 * until ./chat.ts takes leaving over, a Ctrl-C (the terminal's, which ./early-keys.ts passes on
 * as SIGINT, or a signal) leaves as every way out does: the one line that says it left, once the
 * state folder is known (./run-state.ts's `farewell`), and exit code 0. Before, Node's own end
 * for SIGINT left silently with 130 while the agent started (issue 45, trial 11).
 */
import { printLines } from './print-lines.js';

export const LEAVING_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;
harden(LEAVING_SIGNALS);

export interface LeaveBeforeChat {
  /** The line to say on leaving, once the state folder is known (and locked for this run). */
  known(farewell: string): void;
  /** Leaves now: the line, if known, then exit 0. */
  leave(): void;
  /** The chat leaves from now on, its own way (./chat.ts). */
  stop(): void;
}

export const leaveBeforeChat = (
  write: (line: string) => void = line => printLines(process.stdout, line),
  exit: (code: number) => void = code => process.exit(code),
): LeaveBeforeChat => {
  let farewell: string | undefined;
  const leave = () => {
    if (farewell !== undefined) write(farewell);
    exit(0);
  };
  for (const signal of LEAVING_SIGNALS) process.on(signal, leave);
  return harden({
    known: (line: string) => {
      farewell = line;
    },
    leave,
    stop: () => {
      for (const signal of LEAVING_SIGNALS) process.off(signal, leave);
    },
  });
};
harden(leaveBeforeChat);
