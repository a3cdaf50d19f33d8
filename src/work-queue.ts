/**
 * A first-in first-out queue of work for the agent's single serving loop,
 * so turns never overlap while mail and proposal outcomes keep arriving.
 */
export interface WorkQueue<T> {
  push(item: T): void;
  /** The next item, or undefined once the queue is closed and empty. */
  take(): Promise<T | undefined>;
  close(): void;
  size(): number;
}

export const makeWorkQueue = <T>(): WorkQueue<T> => {
  const items: T[] = [];
  let waiting: ((item: T | undefined) => void) | undefined;
  let closed = false;
  return {
    push(item) {
      if (closed) return;
      if (waiting !== undefined) {
        const wake = waiting;
        waiting = undefined;
        wake(item);
      } else {
        items.push(item);
      }
    },
    take() {
      if (items.length > 0) return Promise.resolve(items.shift());
      if (closed) return Promise.resolve(undefined);
      return new Promise(resolve => {
        waiting = resolve;
      });
    },
    close() {
      closed = true;
      if (waiting !== undefined) {
        const wake = waiting;
        waiting = undefined;
        wake(undefined);
      }
    },
    size: () => items.length,
  };
};
