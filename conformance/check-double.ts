/**
 * The double of one generation against what the real daemon answered
 * (conformance/recorded/), less the known differences.
 */
import type { Generation } from '../src/daemon/generation.js';
import { runAgainstDouble } from './against-double.js';
import { compareOutcomes, type Difference } from './compare.js';
import { KNOWN_DIFFERENCES } from './known-differences.js';
import type { Outcome } from './outcome.js';
import { readRecording } from './recorded.js';

export interface DoubleCheck {
  generation: Generation;
  commit: string;
  steps: number;
  outcomes: Outcome[];
  /** Differences not listed as known. */
  unexpected: Difference[];
  /** Known differences that no longer show (the list should shrink). */
  gone: string[];
  known: Difference[];
}

export const splitKnown = (generation: Generation, differences: readonly Difference[]) => {
  const known = KNOWN_DIFFERENCES[generation];
  return {
    unexpected: differences.filter(d => !known.includes(d.step)),
    known: differences.filter(d => known.includes(d.step)),
    gone: known.filter(step => !differences.some(d => d.step === step)),
  };
};
harden(splitKnown);

export const checkDouble = async (generation: Generation): Promise<DoubleCheck> => {
  const recording = readRecording(generation);
  const outcomes = await runAgainstDouble(generation);
  const { steps, differences } = compareOutcomes(outcomes, recording.outcomes);
  return {
    generation,
    commit: recording.commit,
    steps,
    outcomes,
    ...splitKnown(generation, differences),
  };
};
harden(checkDouble);
