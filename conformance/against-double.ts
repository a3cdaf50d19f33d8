/** The sequence against the daemon double (sim/mail-host), restart included. */
import { makeMailHost } from '../sim/mail-host/index.js';
import type { DaemonProfile } from '../sim/mail-host/index.js';
import type { Outcome } from './outcome.js';
import { runPhase } from './sequence.js';

export const runAgainstDouble = async (profile: DaemonProfile): Promise<Outcome[]> => {
  const daemon = makeMailHost({ profile });
  const before = await runPhase('before-restart', daemon.host);
  await daemon.restart();
  const after = await runPhase('after-restart', daemon.host);
  return [...before.outcomes, ...after.outcomes];
};
harden(runAgainstDouble);
