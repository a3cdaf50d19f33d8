/**
 * A stopped run's last write (what the cancellation ended: an approved call it stopped, the model
 * calls it made; issue 45) is awaited by the run made next in the same worker process before that
 * run reads the store, so it reads what the stopped run wrote. The worker process keeps it, as it
 * keeps failed starts (revival-backoff.ts): the daemon cannot wait for it, since its disposal hooks
 * are functions it calls in its own process (`hook()`), and a worker can hand it only a remote
 * reference, which fails there ("hook is not a function", failing `endo cancel` and LAL_RESTART's
 * stop: docs/daemon-guide.md, "Stop, restart and remove an agent"). Bounded: a run that does not
 * end soon never holds up the next one. A run in a new worker process has nothing to wait for.
 */

const LAST_WRITE_MS = 2_000;

/** Each agent's last run's last write, by agent name, as the worker process keeps it. */
export type LastWrites = Map<string, Promise<void>>;

export const makeLastWrites = (): LastWrites => new Map<string, Promise<void>>();
harden(makeLastWrites);

/** The daemon's worker process: one for the agents it runs. An in-process host passes its own. */
export const workerLastWrites: LastWrites = makeLastWrites();
harden(workerLastWrites);

/** Resolves once `promise` settles, or after `ms`, whichever comes first. */
const within = (promise: Promise<void>, ms: number): Promise<void> =>
  new Promise<void>(resolve => {
    const timer = setTimeout(resolve, ms);
    timer.unref?.();
    void promise.then(() => {
      clearTimeout(timer);
      resolve();
    });
  });

/**
 * This run's place in the worker's memory: `written` to call once its last write is done (or none
 * will be), `previous` to await (within the bound) the last write of the run before it, `after`
 * to make a run start only after that.
 */
export const lastWriteOf = (
  writes: LastWrites,
  name: string,
  ms: number = LAST_WRITE_MS,
): {
  written: () => void;
  previous: () => Promise<void>;
  after: <T>(run: () => Promise<T>) => () => Promise<T>;
} => {
  const before = writes.get(name);
  let written = () => {};
  const done = new Promise<void>(resolve => (written = resolve));
  writes.set(name, done);
  void done.then(() => {
    if (writes.get(name) === done) writes.delete(name);
  });
  const previous = () => (before === undefined ? Promise.resolve() : within(before, ms));
  return harden({ written, previous, after: run => () => previous().then(run) });
};
harden(lastWriteOf);
