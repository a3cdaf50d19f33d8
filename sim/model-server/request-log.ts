/** Every request a model double received, in order, and waits for a number of them. */
import type { RecordedRequest } from './types.js';

export const makeRequestLog = () => {
  const requests: RecordedRequest[] = [];
  const waiters: { count: number; resolve: () => void }[] = [];

  const add = (record: RecordedRequest) => {
    requests.push(record);
    for (const waiter of waiters.filter(candidate => requests.length >= candidate.count)) {
      waiters.splice(waiters.indexOf(waiter), 1);
      waiter.resolve();
    }
  };

  /** Resolves when at least `count` requests (of any kind) have arrived. */
  const waitForRequests = (count: number): Promise<void> =>
    requests.length >= count
      ? Promise.resolve()
      : new Promise(resolve => waiters.push({ count, resolve }));

  return { requests, add, waitForRequests };
};
harden(makeRequestLog);
