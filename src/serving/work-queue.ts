/**
 * The queue of work for the agent's single serving loop, so turns never
 * overlap while mail and proposal outcomes keep arriving. Work is kept in
 * lanes (one per sender): lanes marked first (the HOST, trusted senders,
 * the agent's own outcomes and wake-ups) are served before the others, and
 * within each tier lanes take turns (round robin), so one sender's flood
 * never starves another. Each lane keeps its own order. Without a lane
 * function it is one first-in first-out queue. Before an item of a lane
 * that is not first is taken from a backlog, `beforeRest` lets what is
 * still on its way arrive (the mail stream catching up): a HOST's message
 * behind a flood of others' is then taken next (docs/behaviour.md 9.3). A
 * taker that found the queue empty serves what comes at once.
 */
export interface WorkQueue<T> {
  push(item: T): void;
  /** The next item, or undefined once the queue is closed and empty. */
  take(): Promise<T | undefined>;
  close(): void;
  size(): number;
  /** Settles at the next push (or when the queue closes): a wait that must end when work comes. */
  arrival(): Promise<void>;
  /** Items waiting per lane, first tier first, for help(). */
  waiting(): { lane: string; size: number }[];
}

export interface Lane {
  /** Items of one lane are served in the order they came. */
  key: string;
  /** Served before every lane that is not first. */
  first: boolean;
}

/** One tier: its lanes in turn order, each with its items. */
const makeTier = <T>() => {
  const lanes = new Map<string, T[]>();
  return {
    push(key: string, item: T) {
      const lane = lanes.get(key);
      if (lane === undefined) lanes.set(key, [item]);
      else lane.push(item);
    },
    /** The head of the lane whose turn it is; that lane then goes to the back. */
    take(): T | undefined {
      const next = lanes.entries().next();
      if (next.done === true) return undefined;
      const [key, lane] = next.value;
      const item = lane.shift();
      lanes.delete(key);
      if (lane.length > 0) lanes.set(key, lane);
      return item;
    },
    size: () => [...lanes.values()].reduce((sum, lane) => sum + lane.length, 0),
    waiting: () => [...lanes].map(([lane, items]) => ({ lane, size: items.length })),
  };
};

const ONE_LANE: Lane = harden({ key: '', first: true });

export const makeWorkQueue = <T>(
  laneOf: (item: T) => Lane = () => ONE_LANE,
  options: {
    /** Awaited before an item of a lane that is not first is taken (one taker at a time). */
    beforeRest?: () => Promise<void>;
  } = {},
): WorkQueue<T> => {
  const first = makeTier<T>();
  const rest = makeTier<T>();
  let waiting: (() => void) | undefined;
  let closed = false;
  // Whoever waits for the next push without taking it (../serving-loop.ts, before the memory's write).
  let arrived: { promise: Promise<void>; resolve: () => void } | undefined;
  const wake = () => {
    const waker = waiting;
    waiting = undefined;
    waker?.();
    arrived?.resolve();
    arrived = undefined;
  };
  const take = async (): Promise<T | undefined> => {
    // An idle taker serves what comes at once; one with a backlog lets the rest arrive first.
    let idle = false;
    for (;;) {
      if (first.size() > 0) return first.take();
      if (rest.size() > 0) {
        // eslint-disable-next-line no-await-in-loop -- what is on its way may be a first lane's
        if (!idle && options.beforeRest !== undefined) await options.beforeRest();
        return first.take() ?? rest.take();
      }
      if (closed) return undefined;
      idle = true;
      // eslint-disable-next-line no-await-in-loop -- until something is pushed, or the queue closes
      await new Promise<void>(resolve => {
        waiting = resolve;
      });
    }
  };
  return {
    push(item) {
      if (closed) return;
      const lane = laneOf(item);
      (lane.first ? first : rest).push(lane.key, item);
      wake();
    },
    take,
    close() {
      closed = true;
      wake();
    },
    size: () => first.size() + rest.size(),
    arrival() {
      if (closed) return Promise.resolve();
      if (arrived === undefined) {
        let resolve = () => {};
        const promise = new Promise<void>(settle => {
          resolve = settle;
        });
        arrived = { promise, resolve };
      }
      return arrived.promise;
    },
    waiting: () => [...first.waiting(), ...rest.waiting()],
  };
};
harden(makeWorkQueue);
