/** Wraps a subscription as the remote async iterator the daemon hands out. */
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

export const makeIteratorRef = <T>(subscription: Subscription<T>) =>
  makeGuardedExo<RemoteIterator<T>>('AsyncIterator', AsyncIteratorInterface, {
    next() {
      return subscription.next();
    },
    async return(value?: unknown) {
      subscription.end();
      return harden({ done: true, value });
    },
    async throw(error?: unknown) {
      subscription.end();
      throw error;
    },
  });
harden(makeIteratorRef);
