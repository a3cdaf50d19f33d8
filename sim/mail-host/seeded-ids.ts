/**
 * A daemon's identity that outlives the process: the simulator's state
 * folder keeps a seed, and the ids formulated at start (the host, its
 * guest, their stores and mailboxes) and the node's number are drawn from
 * it, so the same state folder is the same daemon on every run, as the real
 * daemon's state is (docs/behaviour.md 10.1). Ids formulated later are
 * random, so none repeats one of an earlier run.
 */
import { createHash } from 'node:crypto';
import { makeIdMinter, type IdMinter } from './formula-id.js';

export interface SeededIdentity {
  /** Hex; the ids and the node's number are derived from it. */
  readonly seed: string;
  /** How many ids, from the first, are derived from the seed; the rest are random. */
  readonly seeded: number;
}

/** A number as long as `random()` gives (128 or 64 hex digits), derived from the seed and a label. */
const derive = (seed: string, label: string, length: number): string => {
  let out = '';
  for (let part = 0; out.length < length; part += 1)
    out += createHash('sha512').update(`${seed}:${label}:${part}`).digest('hex');
  return out.slice(0, length);
};

/**
 * A minter whose node and first `seeded` ids come from the seed (all random
 * without one); `minted()` counts the ids it made.
 */
export const makeSeededMinter = (
  random: () => string,
  identity: SeededIdentity | undefined,
): IdMinter & { minted(): number } => {
  let count = 0;
  const next = () => {
    const index = count;
    count += 1;
    return identity !== undefined && index < identity.seeded
      ? derive(identity.seed, String(index), random().length)
      : random();
  };
  const node = identity === undefined ? random() : derive(identity.seed, 'node', random().length);
  return harden({ ...makeIdMinter(next, node), minted: () => count });
};
harden(makeSeededMinter);
