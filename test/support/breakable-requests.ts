/**
 * Guest powers whose `request` can lose its connection on cue: the request
 * still reaches the daemon (the recipient sees it, the agent's own copy is
 * posted), but the agent's promise for it rejects as a broken CapTP
 * connection does. Every other method is the guest's own, through E().
 */
import { E, Far } from '@endo/far';

export const makeBreakableRequests = () => {
  let breakNext = 0;
  const wrap = async (powers: unknown): Promise<unknown> => {
    const far = powers as Record<string, (...args: unknown[]) => unknown>;
    const names = (await E(far).__getMethodNames__!()) as string[];
    const methods: Record<string, (...args: unknown[]) => unknown> = {};
    for (const name of names.filter(method => method !== '__getMethodNames__'))
      methods[name] = (...args: unknown[]) => E(far)[name]!(...args);
    methods.request = (...args: unknown[]) => {
      const asked = E(far).request!(...args);
      if (breakNext === 0) return asked;
      breakNext -= 1;
      // The daemon keeps the request; only the agent's line to it is gone.
      Promise.resolve(asked).catch(() => {});
      return Promise.reject(Error('Disconnected: the connection closed'));
    };
    return Far('EndoGuest', methods);
  };
  return {
    wrap,
    /** The next `count` requests lose their connection. */
    breakRequests(count = 1) {
      breakNext = count;
    },
  };
};
