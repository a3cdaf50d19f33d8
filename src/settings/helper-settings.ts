/**
 * The settings of helper agents (docs/configuration.md, behaviour 7.9): how
 * many may run at once (LAL_MAX_HELPERS), how deep helpers of helpers may
 * go (LAL_HELPER_DEPTH), and the longest a helper may work
 * (LAL_HELPER_SECONDS, also its time when its budget names none).
 */
import type { Env } from '../../providers/types.js';
import { readPositiveInteger } from './read-positive-integer.js';

export interface HelperSettings {
  /** Helpers each party may have running at once, all depths together (src/peers/party-slots.ts). */
  max: number;
  /** A helper made by the agent is at depth 1; its own helpers at 2; none deeper. */
  depth: number;
  /** The longest a helper may work, in seconds. */
  seconds: number;
}

// A few at once: each makes model calls against the same hourly budget as its parent.
const DEFAULT_MAX_HELPERS = 4;
// A helper may hand part of its task on once; deeper chains cost calls and explain nothing more.
const DEFAULT_HELPER_DEPTH = 2;
// Ten minutes: a helper is a task's worth of work, not a standing agent.
const DEFAULT_HELPER_SECONDS = 600;

export const readHelperSettings = (env: Env, problems: string[]): HelperSettings =>
  harden({
    max: readPositiveInteger(env, 'LAL_MAX_HELPERS', DEFAULT_MAX_HELPERS, problems),
    depth: readPositiveInteger(env, 'LAL_HELPER_DEPTH', DEFAULT_HELPER_DEPTH, problems),
    seconds: readPositiveInteger(env, 'LAL_HELPER_SECONDS', DEFAULT_HELPER_SECONDS, problems),
  });
harden(readHelperSettings);
