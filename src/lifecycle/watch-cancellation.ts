/**
 * Calls `onCancel` once when the caplet's context is cancelled (its
 * `whenCancelled()` promise, reached through E() since the daemon's context
 * is remote) or when a local owner's promise settles.
 */
import { E } from '@endo/far';

export const watchCancellation = (
  context: unknown,
  cancelled: Promise<unknown> | undefined,
  onCancel: (reason: unknown) => void,
): void => {
  if (context !== undefined && context !== null) {
    Promise.resolve()
      .then(() => E(context as { whenCancelled(): Promise<void> }).whenCancelled())
      .then(
        () => onCancel('context cancelled'),
        (reason: unknown) => onCancel(reason),
      );
  }
  cancelled?.then(
    () => onCancel('cancelled by owner'),
    (reason: unknown) => onCancel(reason),
  );
};
harden(watchCancellation);
