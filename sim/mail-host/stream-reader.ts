/**
 * The newest daemon's `followMessages` answer: a PassableReader (exo-stream's
 * protocol). The consumer calls `stream(synHead)` with the head of a chain of
 * synchronisation nodes `{ value, promise }` it resolves one by one ("give me
 * one more"; `promise: null` closes), and gets back the head of a chain of
 * acknowledgement nodes `{ value, promise }` carrying the values (`promise:
 * null` ends the stream). Written here from the protocol; nothing imported.
 */
import { M } from '@endo/patterns';
import type { InterfaceGuard } from '@endo/patterns';
import { makeGuardedExo } from './guarded-exo.js';
import type { Subscription } from './topic.js';

const PassableReaderInterface: InterfaceGuard = M.interface('PassableReader', {
  stream: M.call(M.any()).returns(M.promise()),
  readPattern: M.call().returns(M.opt(M.pattern())),
  readReturnPattern: M.call().returns(M.opt(M.pattern())),
});

interface StreamNode {
  readonly value: unknown;
  readonly promise: Promise<StreamNode> | null;
}

const isNode = (node: unknown): node is StreamNode =>
  node !== null && (typeof node === 'object' || typeof node === 'function') && 'promise' in node;

/** A reader over a subscription; `present` turns each value into what the consumer receives. */
export const makeStreamReader = <T>(
  subscription: Subscription<T>,
  present: (value: T) => unknown = value => value,
) =>
  makeGuardedExo<object>('PassableReader', PassableReaderInterface, {
    stream(synHead: unknown) {
      let acknowledge!: (node: StreamNode | Promise<never>) => void;
      const ackHead = new Promise<StreamNode>(resolve => {
        acknowledge = resolve;
      });
      const pump = async () => {
        let syn = synHead;
        try {
          for (;;) {
            // One value per synchronisation: wait until the consumer asks.
            const node = await syn;
            if (!isNode(node))
              throw TypeError('Reader synchronization chain yielded an invalid node');
            if (node.promise === null) {
              subscription.end();
              acknowledge(harden({ value: node.value, promise: null }));
              return;
            }
            syn = node.promise;
            const step = await subscription.next();
            if (step.done) {
              acknowledge(harden({ value: undefined, promise: null }));
              return;
            }
            let next!: (node: StreamNode | Promise<never>) => void;
            const nextNode = new Promise<StreamNode>(resolve => {
              next = resolve;
            });
            acknowledge(harden({ value: present(step.value), promise: nextNode }));
            acknowledge = next;
          }
        } catch (error) {
          subscription.end();
          const failed = Promise.reject(error);
          failed.catch(() => {});
          acknowledge(failed);
        }
      };
      void pump();
      return ackHead;
    },
    readPattern: () => undefined,
    readReturnPattern: () => undefined,
  });
harden(makeStreamReader);
