/**
 * The daemon waits for a caplet's disposal hooks before it is done cancelling it, so before it
 * makes it again (the simulator's Ctrl-C, a worker's revival). The agent's hook waits for its
 * stopped run's last write (what the cancellation ended: an approved call it stopped, the model
 * calls it made; issue 45), so the run made again reads that. Bounded: a run that does not end
 * soon never holds up a cancellation. A context that takes no hook (an older daemon, a test's)
 * only means the next run may not see that last write.
 */
import { E, Far } from '@endo/far';

const LAST_WRITE_MS = 2_000;

/** Registers the hook on the context; returns what to call once the last write is done (or none will be). */
export const awaitOnDisposal = (context: unknown, ms: number = LAST_WRITE_MS): (() => void) => {
  let written = () => {};
  const done = new Promise<void>(resolve => (written = resolve));
  const hook = Far(
    'lastWrite',
    () =>
      new Promise<void>(resolve => {
        const timer = setTimeout(resolve, ms);
        timer.unref?.();
        void done.then(() => {
          clearTimeout(timer);
          resolve();
        });
      }),
  );
  // No context (a test's make) or one without the method: the send fails, and that is all.
  Promise.resolve()
    .then(() => E(context as { addDisposalHook(hook: unknown): void }).addDisposalHook(hook))
    .catch(() => {});
  return written;
};
harden(awaitOnDisposal);
