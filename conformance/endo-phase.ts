/**
 * One phase of the sequence inside a real daemon, run by its CLI:
 *   endo run --UNCONFINED dist/conformance/endo-phase.js <phase> --powers AGENT
 * Prints the generation and outcomes as one JSON line after OUTCOMES_MARKER.
 */
import { Fail, q } from '@endo/errors';
import { PHASES, runPhase, type PhaseName } from './sequence.js';

export const OUTCOMES_MARKER = 'conformance-outcomes:';
harden(OUTCOMES_MARKER);

export const main = async (powers: unknown, phase: string) => {
  PHASES.includes(phase as PhaseName) || Fail`Unknown phase ${q(phase)}`;
  const run = await runPhase(phase as PhaseName, await powers);
  process.stdout.write(`${OUTCOMES_MARKER}${JSON.stringify(run)}\n`);
};
harden(main);
