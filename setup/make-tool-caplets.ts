/**
 * Creates tool caplets in the host's inventory, each under its own pet
 * name, skipping names that already exist (the daemon's makeUnconfined is
 * not idempotent: a second call would make a new caplet and rebind the name).
 */
import { E } from '@endo/far';
import type { SetupHostRef } from './setup-host.js';
import type { SetupDaemon } from './setup-daemon.js';
import type { Say } from './say.js';
import { ownWorker } from './read-setup-env.js';

export interface ToolCapletPlan {
  /** The host's pet name for the tool caplet (`math-tool`). */
  petName: string;
  /** The tool's module, a file:// URL. */
  specifier: string;
  env: Readonly<Record<string, string>>;
}

export interface ToolCapletsMade {
  created: string[];
  kept: string[];
}

/**
 * Each tool is made in `daemon.worker` (the guest's), but those `isolated` names, each made in a
 * worker of its own, `worker-for-<pet name>`: a process each, so a tool that may crash or hang
 * its worker takes nothing else down.
 */
export const makeToolCaplets = async (
  host: SetupHostRef,
  daemon: SetupDaemon,
  plans: readonly ToolCapletPlan[],
  say: Say,
  isolated: ReadonlySet<string> = new Set(),
): Promise<ToolCapletsMade> => {
  const created: string[] = [];
  const kept: string[] = [];
  // One at a time, so the output reads in order and a failure stops where it happened.
  for (const plan of plans) {
    if (await E(host).has(plan.petName)) {
      kept.push(plan.petName);
      say(
        `"${plan.petName}" already exists; keeping it (endo remove ${plan.petName} to re-create it)`,
      );
      continue;
    }
    const own = isolated.has(plan.petName);
    const worker = own ? ownWorker(plan.petName) : daemon.worker;
    await E(host).makeUnconfined(
      worker,
      plan.specifier,
      harden({ powersName: daemon.none, resultName: plan.petName, env: plan.env }),
    );
    created.push(plan.petName);
    const passed = Object.keys(plan.env);
    say(
      `created "${plan.petName}"${own ? ` in a worker of its own, "${worker}" (FAE_TOOL_ISOLATE)` : ''}${passed.length === 0 ? '' : ` (passed ${passed.join(', ')})`}`,
    );
  }
  return { created, kept };
};
harden(makeToolCaplets);
