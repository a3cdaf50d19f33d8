/**
 * `E(ref)`, made once per reference. Every `E()` makes a proxy and hardens
 * a handler for it (about 6 KB allocated a call in process, issue 46 round
 * 10), and the agent calls the same guest powers several times every ping
 * (its reply, two dismissals, the memory's write). The proxy holds nothing
 * of any one call (each method it gives checks only that it is called on
 * the proxy), so one per reference serves every call.
 */
import { E } from '@endo/far';

const proxies = new WeakMap<object, unknown>();

export const farOf = <T>(ref: T): ReturnType<typeof E<T>> => {
  // Anything E() takes: a value that cannot key a WeakMap gets a proxy of its own, as before.
  if (ref === null || (typeof ref !== 'object' && typeof ref !== 'function')) return E(ref);
  const known = proxies.get(ref) as ReturnType<typeof E<T>> | undefined;
  if (known !== undefined) return known;
  const made = E(ref);
  proxies.set(ref, made);
  return made;
};
harden(farOf);
