/**
 * The consumer side of the newest daemon's exo-stream readers (what
 * `followMessages` answers): the daemon's PassableReader has no `next`; the
 * consumer calls `stream(synHead)` once, asks for each value by resolving the
 * next node of its synchronisation chain (`{ value: undefined, promise }`), and
 * reads acknowledgement nodes `{ value, promise }` back (`promise: null` ends).
 * Closing resolves the synchronisation chain with `promise: null`. Written
 * from the protocol as endojs/endo's packages/exo-stream describes it
 * (@endo/exo-stream is not published on npm).
 */
import { E } from '@endo/far';

interface StreamNode {
  value: unknown;
  promise: Promise<StreamNode> | null;
}

export interface StreamReaderClient {
  next(): Promise<IteratorResult<unknown>>;
  /** Closes the stream; a `next()` still waiting ends as done. */
  return(value?: unknown): Promise<IteratorResult<unknown>>;
}

const DONE = harden({ done: true, value: undefined }) as IteratorResult<unknown>;

export const readStream = (reader: unknown): StreamReaderClient => {
  let ask!: (node: StreamNode) => void;
  const synHead = new Promise<StreamNode>(resolve => {
    ask = resolve;
  });
  /**
   * The node to read next, handled aside as soon as it is known: a reader that stopped reading (its
   * channel left, its membership disabled) never awaits it, and its failure then is no one's
   * (issue 45); a read that races it still gets the failure.
   */
  const following = (node: Promise<StreamNode>): Promise<StreamNode> => {
    node.catch(() => {});
    return node;
  };
  let nodePromise = following(
    Promise.resolve(E(reader as { stream(syn: unknown): Promise<StreamNode> }).stream(synHead)),
  );
  let ended: Promise<IteratorResult<unknown>> | undefined;
  let close!: () => void;
  const closed = new Promise<'closed'>(resolve => {
    close = () => resolve('closed');
  });
  let queue: Promise<unknown> = Promise.resolve();

  const step = async (): Promise<IteratorResult<unknown>> => {
    if (ended) return ended;
    // One more, please: the producer pulls one value per synchronisation node.
    let askNext!: (node: StreamNode) => void;
    const nextSyn = new Promise<StreamNode>(resolve => {
      askNext = resolve;
    });
    ask(harden({ value: undefined, promise: nextSyn }));
    ask = askNext;
    try {
      const node = await Promise.race([nodePromise, closed]);
      if (node === 'closed') return DONE;
      if (node === null || typeof node !== 'object' || !('promise' in node)) {
        throw TypeError('The stream answered with something that is not a stream node');
      }
      if (node.promise === null) {
        ended = Promise.resolve(
          harden({ done: true, value: node.value }) as IteratorResult<unknown>,
        );
        return ended;
      }
      nodePromise = following(Promise.resolve(node.promise));
      return harden({ done: false, value: node.value });
    } catch (error) {
      ended = Promise.reject(error);
      ended.catch(() => {});
      ask(harden({ value: undefined, promise: null }));
      return ended;
    }
  };

  return harden({
    next: () => {
      const result = queue.then(step);
      queue = result.catch(() => {});
      return result;
    },
    // Closing is done whatever the stream did: one that failed already told its reader, and a
    // close nobody awaits (a watch stopped with its agent) must not fail a second time.
    return: async (value?: unknown) => {
      if (!ended) {
        ask(harden({ value, promise: null }));
        ended = Promise.resolve(DONE);
        close();
      }
      return ended.catch(() => DONE);
    },
  });
};
harden(readStream);
