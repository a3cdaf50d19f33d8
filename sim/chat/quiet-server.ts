/**
 * A model call the server sends nothing back for (a hung server: issue 45).
 * Past `quietAfterMs` the status line says so, and that Ctrl-C stops the turn,
 * instead of "thinking…" for as long as the request's time limit and its
 * retries allow (LAL_REQUEST_TIMEOUT_MS, LAL_MAX_RETRIES: half an hour by
 * default). Its seconds go on at each look, the row's one count: the turn's
 * clock is not shown beside it (`silent for 30 s · Ctrl-C stops 31s` read as
 * two counters, trial 11). A piped run shows it in its still-working lines
 * (./screen.ts). It watches the agent's events beside the presenter
 * (./presenter.ts), whose next status replaces it.
 */
import type { AgentEvent } from '../../src/events/agent-events.js';
import type { Screen } from './screen.js';

/** When a model call that has had nothing back is said to wait, and how often that is looked at. */
interface QuietServer {
  quietAfterMs: number;
  checkEveryMs: number;
}
const QUIET_SERVER: QuietServer = { quietAfterMs: 30_000, checkEveryMs: 1_000 };

/**
 * What the status line says of it, and shorter forms for a narrower terminal (./screen.ts shows
 * the first that fits): each drops what matters least first (who waits, then on what), never
 * the seconds nor that Ctrl-C stops. The first reads whole beside the spinner on an 80-column
 * terminal, the last on a 40-column one.
 */
export const waitingStatus = (persona: string, seconds: number): [string, ...string[]] => [
  `${persona} is waiting: the model server is silent for ${seconds} s · Ctrl-C stops`,
  `the model server is silent for ${seconds} s · Ctrl-C stops`,
  `model server silent ${seconds} s · Ctrl-C stops`,
  `silent ${seconds} s · Ctrl-C stops`,
];
harden(waitingStatus);

export const watchQuietServer = (
  screen: Pick<Screen, 'status'>,
  persona: string,
  quiet: QuietServer = QUIET_SERVER,
) => {
  let since = 0;
  let timer: NodeJS.Timeout | undefined;
  const stop = () => {
    if (timer !== undefined) clearInterval(timer);
    timer = undefined;
  };
  /** The server was asked, or said something: counted from now. */
  const restart = () => {
    since = Date.now();
    if (timer !== undefined) return;
    timer = setInterval(() => {
      const waited = Date.now() - since;
      if (waited < quiet.quietAfterMs) return;
      const [text, ...shorter] = waitingStatus(persona, Math.floor(waited / 1000));
      screen.status(text, shorter, false);
    }, quiet.checkEveryMs);
    timer.unref();
  };
  return {
    see: (event: AgentEvent) => {
      if (event.kind === 'model-call' || event.kind === 'model-text') restart();
      else if (event.kind === 'model-reply' || event.kind === 'turn-end') stop();
    },
    stop,
  };
};
harden(watchQuietServer);
