/**
 * Creates tool caplets in the host's inventory, each under its own pet
 * name, skipping names that already exist (the daemon's makeUnconfined is
 * not idempotent: a second call would make a new caplet and rebind the name).
 */
import { E } from '@endo/far';
import type { SetupHostRef } from './setup-host.js';
import type { SetupDaemon } from './setup-daemon.js';
import type { Say } from './say.js';

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

export const makeToolCaplets = async (
  host: SetupHostRef,
  daemon: SetupDaemon,
  plans: readonly ToolCapletPlan[],
  say: Say,
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
    await E(host).makeUnconfined(
      daemon.worker,
      plan.specifier,
      harden({ powersName: daemon.none, resultName: plan.petName, env: plan.env }),
    );
    created.push(plan.petName);
    const passed = Object.keys(plan.env);
    say(`created "${plan.petName}"${passed.length === 0 ? '' : ` (passed ${passed.join(', ')})`}`);
  }
  return { created, kept };
};
harden(makeToolCaplets);
