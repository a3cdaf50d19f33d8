/**
 * Guest powers whose `dismiss` fails on cue, without reaching the daemon (a
 * connection lost as the call went, a daemon that refused it): the message
 * stays in the inbox. Every other method is the guest's own, through E().
 */
import { E, Far } from '@endo/far';

export const makeFailingDismissals = () => {
  /** While set, every dismissal fails. */
  const state = { failing: false };
  const wrap = async (powers: unknown): Promise<unknown> => {
    const far = powers as Record<string, (...args: unknown[]) => unknown>;
    const names = (await E(far).__getMethodNames__!()) as string[];
    const methods: Record<string, (...args: unknown[]) => unknown> = {};
    for (const name of names.filter(method => method !== '__getMethodNames__'))
      methods[name] = (...args: unknown[]) => E(far)[name]!(...args);
    methods.dismiss = (...args: unknown[]) =>
      state.failing ? Promise.reject(Error('dismiss failed')) : E(far).dismiss!(...args);
    return Far('EndoGuest', methods);
  };
  return { state, wrap };
};
