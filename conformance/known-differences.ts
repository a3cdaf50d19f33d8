/**
 * Where the double knowingly answers otherwise than the real daemon, by step;
 * each is explained in docs/daemon-api.md ("Known differences").
 */
import type { Generation } from '../src/daemon/generation.js';

export const KNOWN_DIFFERENCES: Readonly<Record<Generation, readonly string[]>> = harden({
  f0a46042a: [],
  newest: [
    // The double keeps f0a46042a's pet-name rule (lower case, digits, "-") on the newest daemon too.
    'before-restart: guest stores a bad pet name',
  ],
});
harden(KNOWN_DIFFERENCES);
