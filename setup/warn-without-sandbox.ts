/**
 * setup-tools provisions run-command-tool; if no sandbox works on this
 * machine, the tool will refuse every command (or, with the opt-out, run
 * them unconfined), and the host is told so now rather than by the first
 * refusal. The check runs here, where `endo run` runs: normally the machine
 * of the daemon, whose workers run the tools.
 */
import { checkSandbox } from '../tools/lib/sandbox/sandbox-check.js';
import { readSandboxSettings } from '../tools/lib/sandbox/sandbox-settings.js';
import type { SourceEnv } from './passed-env.js';
import type { Say } from './say.js';

export const warnWithoutSandbox = async (env: SourceEnv, say: Say): Promise<void> => {
  const settings = readSandboxSettings(env, 'run-command-tool');
  if (settings.unsandboxed) {
    say(
      "warning: FAE_RUN_COMMAND_UNSANDBOXED=1: run-command-tool runs commands unconfined, with the daemon's rights, and anyone who can mail the agent can steer them",
    );
    return;
  }
  const problem = await checkSandbox(env.PATH);
  if (problem !== undefined) {
    say(
      `warning: run-command-tool has no working sandbox here and will refuse to run commands: ${problem}`,
    );
  }
};
harden(warnWithoutSandbox);
