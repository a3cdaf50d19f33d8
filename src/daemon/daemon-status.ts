/** What help() says about the daemon the agent lives in. */
import type { DaemonAdapter } from './daemon-adapter.js';

export const daemonStatus = (daemon: DaemonAdapter, directEvaluation: boolean): string[] => {
  const lines = [
    `generation: ${daemon.generation} — ${daemon.label}`,
    `special names: ${Object.values(daemon.names).join(', ')}`,
  ];
  if (daemon.generation === 'newest') {
    lines.push(
      directEvaluation
        ? 'code: evaluate runs at once, without asking (LAL_DIRECT_EVAL)'
        : `code: evaluate asks ${daemon.names.host} first (a request ${daemon.names.host} resolves to run the code, or rejects); LAL_DIRECT_EVAL=1 would run it at once, as this daemon's own evaluate does`,
    );
  } else {
    lines.push('code: evaluate is an eval-proposal the host grants or rejects');
  }
  return lines;
};
harden(daemonStatus);
