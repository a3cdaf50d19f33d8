/**
 * Guest powers whose tools/ name-change stream can break on cue: the
 * iterator the agent follows tools/ with (f0a46042a's `followNameChanges`)
 * rejects its pending `next()` as a lost connection does, or ends; and whose next
 * listing of tools/ can answer something that is not a list (a daemon that
 * lies). Every other method is the guest's own, through E().
 */
import { E, Far } from '@endo/far';

export const makeBreakableToolsFollower = () => {
  const pending = new Map<(error: Error) => void, (step: unknown) => void>();
  let opened = 0;
  let oddList = false;
  const followerOf = (directory: unknown) =>
    Far('tools directory', {
      followNameChanges: async () => {
        const iterator = await (
          E(directory) as unknown as { followNameChanges(): Promise<unknown> }
        ).followNameChanges();
        opened += 1;
        const far = E(iterator) as unknown as {
          next(): Promise<unknown>;
          return(value?: unknown): Promise<unknown>;
        };
        return Far('name changes', {
          next: () =>
            new Promise((resolve, reject) => {
              pending.set(reject, resolve);
              far.next().then(step => {
                pending.delete(reject);
                resolve(step);
              }, reject);
            }),
          return: (value?: unknown) => far.return(value),
        });
      },
    });
  const wrap = async (powers: unknown): Promise<unknown> => {
    const far = powers as Record<string, (...args: unknown[]) => unknown>;
    const names = (await E(far).__getMethodNames__!()) as string[];
    const methods: Record<string, (...args: unknown[]) => unknown> = {};
    for (const name of names.filter(method => method !== '__getMethodNames__'))
      methods[name] = (...args: unknown[]) => E(far)[name]!(...args);
    methods.lookup = async (...args: unknown[]) => {
      const found = await E(far).lookup!(...args);
      return args[0] === 'tools' ? followerOf(found) : found;
    };
    methods.list = async (...args: unknown[]) => {
      if (!oddList || args[0] !== 'tools') return E(far).list!(...args);
      oddList = false;
      return harden({ calculator: 'not a list' });
    };
    return Far('EndoGuest', methods);
  };
  return {
    wrap,
    /** How many times the agent began following tools/. */
    opened: () => opened,
    /** The next listing of tools/ answers a record, not a list of names. */
    answerOddListOnce() {
      oddList = true;
    },
    /** Every `next()` waiting now rejects as a broken connection. */
    breakFollowing() {
      for (const reject of pending.keys()) reject(Error('Disconnected: the connection closed'));
      pending.clear();
    },
    /** Every `next()` waiting now answers that the stream is done. */
    endFollowing() {
      for (const resolve of pending.values()) resolve(harden({ done: true, value: undefined }));
      pending.clear();
    },
  };
};
