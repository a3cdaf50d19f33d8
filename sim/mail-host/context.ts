/**
 * A caplet's cancellation context, and the remote `Context` object the daemon
 * hands to `make` (only methods: id, cancel, whenCancelled, whenDisposed, addDisposalHook).
 */
import { Far } from '@endo/far';
import type { FormulaId } from './types.js';

/** The daemon cancels with an Error: a text reason (a test's 'test over') becomes one, no reason 'Cancelled'. */
const cancelReason = (reason: unknown): Error =>
  reason instanceof Error
    ? reason
    : harden(Error(reason === undefined ? 'Cancelled' : String(reason)));

export const makeCapletContext = (id: FormulaId) => {
  let done = false;
  let rejectCancelled!: (reason: Error) => void;
  const cancelled = new Promise<never>((_resolve, reject) => {
    rejectCancelled = reject;
  });
  // Nobody has to watch for cancellation.
  cancelled.catch(() => {});
  let resolveDisposed!: (value: Promise<void>) => void;
  const disposed = new Promise<void>(resolve => {
    resolveDisposed = resolve;
  });
  const hooks: unknown[] = [];

  const cancel = (reason?: unknown): Promise<void> => {
    if (done) return disposed;
    done = true;
    rejectCancelled(cancelReason(reason));
    // As the daemon runs them: each called in the daemon's own process, so a hook a worker hands
    // over (a remote reference, not a function) throws, and the cancel with it ("hook is not a
    // function", both daemons; docs/daemon-guide.md, "Stop, restart and remove an agent").
    const ran = hooks.map(hook => (hook as () => unknown)());
    resolveDisposed(Promise.all(ran).then(() => undefined));
    return disposed;
  };

  const far = Far('Context', {
    id: () => id,
    cancel: (reason?: unknown) => cancel(reason),
    whenCancelled: () => cancelled,
    whenDisposed: () => disposed,
    addDisposalHook: (hook: unknown) => {
      if (!done) hooks.push(hook);
    },
  });

  return harden({
    id,
    far,
    cancel,
    cancelled,
    disposed,
    isCancelled: () => done,
  });
};
harden(makeCapletContext);
export type CapletContextKit = ReturnType<typeof makeCapletContext>;
