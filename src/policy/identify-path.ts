/**
 * The formula id a pet-name path names, or undefined when it names none (or
 * the daemon will not say): the policy judges by identity, and what cannot
 * be identified is judged the cautious way by its caller.
 */
import { E } from '@endo/far';
import type { PowersRef } from '../daemon/guest-powers.js';

export const identifyPath = async (
  powers: PowersRef,
  path: readonly string[],
): Promise<string | undefined> => {
  try {
    const id: unknown = await E(powers).identify(...path);
    return typeof id === 'string' ? id : undefined;
  } catch {
    return undefined;
  }
};
harden(identifyPath);
