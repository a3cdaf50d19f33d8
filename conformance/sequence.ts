/**
 * The conformance sequence: the same guest and host calls against any daemon
 * (the double or a real one), in two phases with a restart between them.
 * Each phase takes the host's powers and returns what every step observed.
 */
import { makeRecorder } from './recorder.js';
import type { Generation } from '../src/daemon/generation.js';
import type { Outcome } from './outcome.js';
import { meet } from './parties.js';
import { mailSteps } from './steps-mail.js';
import { nameSteps } from './steps-names.js';
import { editSteps, evaluateSteps, proposalSteps, requestSteps } from './steps-asks.js';
import { afterRestartSteps } from './steps-restart.js';
import { capletEnvAfterRestartSteps, capletEnvSteps } from './steps-caplet-env.js';
import { followStopSteps } from './steps-follow-stop.js';
import { channelAfterRestartSteps, channelSteps } from './steps-channels.js';

export type PhaseName = 'before-restart' | 'after-restart';
export const PHASES: readonly PhaseName[] = ['before-restart', 'after-restart'];
harden(PHASES);

export interface PhaseRun {
  generation: Generation;
  outcomes: Outcome[];
}

export const runPhase = async (phase: PhaseName, host: unknown): Promise<PhaseRun> => {
  const rec = makeRecorder();
  const parties = await meet(host);
  if (phase === 'before-restart') {
    await nameSteps(rec, parties);
    await mailSteps(rec, parties);
    await requestSteps(rec, parties);
    if (parties.generation === 'newest') {
      await evaluateSteps(rec, parties);
      await editSteps(rec, parties);
      await channelSteps(rec, parties);
    } else {
      await proposalSteps(rec, parties);
    }
    await capletEnvSteps(rec, parties);
  } else {
    await afterRestartSteps(rec, parties);
    await capletEnvAfterRestartSteps(rec, parties);
    await followStopSteps(rec, parties);
    if (parties.generation === 'newest') await channelAfterRestartSteps(rec, parties);
  }
  const outcomes = rec.outcomes.map(outcome => ({ ...outcome, step: `${phase}: ${outcome.step}` }));
  return { generation: parties.generation, outcomes };
};
harden(runPhase);
