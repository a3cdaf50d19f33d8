/** The sequence against a real daemon: a phase per CLI run, `endo restart` between. */
import { fileURLToPath } from 'node:url';
import { startEndoDaemon, type EndoDaemon } from './endo-daemon.js';
import { OUTCOMES_MARKER } from './endo-phase.js';
import { PHASES, type PhaseName, type PhaseRun } from './sequence.js';

const PHASE_SCRIPT = fileURLToPath(new URL('./endo-phase.js', import.meta.url));

const runPhaseIn = async (daemon: EndoDaemon, phase: PhaseName): Promise<PhaseRun> => {
  const out = await daemon.endo(['run', '--UNCONFINED', PHASE_SCRIPT, phase, '--powers', 'AGENT']);
  const line = out.split('\n').find(text => text.startsWith(OUTCOMES_MARKER));
  if (line === undefined) throw Error(`The ${phase} phase printed no outcomes:\n${out}`);
  return JSON.parse(line.slice(OUTCOMES_MARKER.length)) as PhaseRun;
};

export const runAgainstEndo = async (checkout: string): Promise<PhaseRun> => {
  const daemon = await startEndoDaemon(checkout);
  try {
    const runs: PhaseRun[] = [];
    for (const phase of PHASES) {
      if (phase !== PHASES[0]) await daemon.endo(['restart']);
      runs.push(await runPhaseIn(daemon, phase));
    }
    return { generation: runs[0]!.generation, outcomes: runs.flatMap(run => run.outcomes) };
  } finally {
    await daemon.stop();
  }
};
harden(runAgainstEndo);
