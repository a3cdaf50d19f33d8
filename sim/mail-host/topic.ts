/**
 * Publish/subscribe without polling: each subscriber has its own queue; a
 * publish either wakes a waiting `next()` or queues the value.
 */

export interface Subscription<T> {
  next(): Promise<IteratorResult<T, undefined>>;
  /** Ends the subscription; pending and later `next()` calls report done. */
  end(): void;
  /** Breaks the subscription; pending and later `next()` calls reject with `error`. */
  fail(error: Error): void;
}

interface Waiter<T> {
  resolve: (result: IteratorResult<T, undefined>) => void;
  reject: (error: Error) => void;
}

const DONE = harden({ done: true, value: undefined }) as IteratorResult<never, undefined>;

/** A FIFO with O(1) push and shift. */
const makeQueue = <T>() => {
  let items: (T | undefined)[] = [];
  let head = 0;
  return {
    push: (item: T) => {
      items.push(item);
    },
    shift: (): T | undefined => {
      if (head >= items.length) return undefined;
      const item = items[head] as T;
      // A taken entry is let go at once, as the daemon's topic lets go of a
      // delivered value: holding it (or a settled waiter, whose promise holds
      // the message) would keep every dismissed message alive until compaction.
      items[head] = undefined;
      head += 1;
      if (head === items.length) {
        items.length = 0;
        head = 0;
      } else if (head > 1024 && head * 2 > items.length) {
        // Compact now and then so a long-lived backlog does not keep its spent slots.
        items = items.slice(head);
        head = 0;
      }
      return item;
    },
    get size() {
      return items.length - head;
    },
    clear: () => {
      items = [];
      head = 0;
    },
  };
};

export const makeTopic = <T>() => {
  const subscribers = new Set<{ offer: (value: T) => void; fail: (error: Error) => void }>();

  /** Subscribes; `initial` values are yielded before anything published later. */
  const subscribe = (initial: Iterable<T> = []): Subscription<T> => {
    const queue = makeQueue<T>();
    for (const value of initial) queue.push(value);
    const waiters = makeQueue<Waiter<T>>();
    let closed = false;
    let failure: Error | undefined;

    const subscriber = {
      offer: (value: T) => {
        const waiter = waiters.shift();
        if (waiter) waiter.resolve(harden({ done: false, value }));
        else queue.push(value);
      },
      fail: (error: Error) => {
        if (closed) return;
        closed = true;
        failure = error;
        subscribers.delete(subscriber);
        queue.clear();
        for (let waiter = waiters.shift(); waiter; waiter = waiters.shift()) waiter.reject(error);
      },
    };
    subscribers.add(subscriber);

    return harden({
      next: (): Promise<IteratorResult<T, undefined>> => {
        if (queue.size > 0)
          return Promise.resolve(harden({ done: false, value: queue.shift() as T }));
        if (failure) return Promise.reject(failure);
        if (closed) return Promise.resolve(DONE);
        return new Promise<IteratorResult<T, undefined>>((resolve, reject) => {
          waiters.push({ resolve, reject });
        });
      },
      end: () => {
        if (closed) return;
        closed = true;
        subscribers.delete(subscriber);
        queue.clear();
        for (let waiter = waiters.shift(); waiter; waiter = waiters.shift()) waiter.resolve(DONE);
      },
      fail: subscriber.fail,
    });
  };

  /** Offers `value` to every subscriber; how many it went to. */
  const publish = (value: T): number => {
    for (const subscriber of subscribers) subscriber.offer(value);
    return subscribers.size;
  };

  /** Breaks every subscription (the daemon went away under them). */
  const failAll = (error: Error): void => {
    for (const subscriber of [...subscribers]) subscriber.fail(error);
  };

  return harden({ subscribe, publish, failAll });
};
harden(makeTopic);
export type Topic<T> = ReturnType<typeof makeTopic<T>>;
