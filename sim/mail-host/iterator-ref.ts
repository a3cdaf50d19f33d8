/**
 * Wraps a subscription as the remote async iterator f0a46042a hands out. A
 * `return` made while a `next` waits never settles there, not even once that
 * `next` has its message (conformance/steps-follow-stop.ts): whoever stops
 * following must not wait on it.
 */
import { makeGuardedExo } from './guarded-exo.js';
import { M } from '@endo/patterns';
import type { InterfaceGuard } from '@endo/patterns';
import type { Subscription } from './topic.js';
import type { RemoteIterator } from './types.js';

const AsyncIteratorInterface: InterfaceGuard = M.interface('AsyncIterator', {
  next: M.call().returns(M.promise()),
  return: M.call().optional(M.any()).returns(M.promise()),
  throw: M.call().optional(M.any()).returns(M.promise()),
});

export const makeIteratorRef = <T>(subscription: Subscription<T>) => {
  /** The `next` still waiting for a message, if any. */
  let waiting: Promise<void> | undefined;
  return makeGuardedExo<RemoteIterator<T>>('AsyncIterator', AsyncIteratorInterface, {
    next() {
      const step = subscription.next();
      const settled: Promise<void> = step.then(
        () => {},
        () => {},
      );
      waiting = settled;
      void settled.then(() => {
        if (waiting === settled) waiting = undefined;
      });
      return step;
    },
    async return(value?: unknown) {
      if (waiting !== undefined) {
        // The waiting `next` still gets its message; the iterator ends after it.
        void waiting.then(() => subscription.end());
        return new Promise<never>(() => {});
      }
      subscription.end();
      return harden({ done: true, value });
    },
    async throw(error?: unknown) {
      subscription.end();
      throw error;
    },
  });
};
harden(makeIteratorRef);
