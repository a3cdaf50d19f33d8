/**
 * Makes sure a directory of the guest's own (`tools/`, and the agent's
 * `agent-state/`, ../memory/memory-place.ts) exists and can be read. At
 * f0a46042a the daemon's makeDirectory names a directory it has just made
 * without holding it against collection, and every guest or host call ends
 * with a collection: one that runs between the two (as when the setup script
 * pins the agent while the agent starts) takes the new directory, and the
 * name `tools` is left naming a formula that is gone ("No reference exists at
 * path …/formulas/…"). Upstream fixed it after f0a46042a (endo commit
 * 0958702c3, "lock and pin transients when creating formulas"). Here a
 * `tools` that cannot be read for that reason, made now or left by an
 * earlier run, is made again, a few times at most. Setup makes a new guest's
 * `tools` before it starts the agent (setup/provision-agent.ts), so this is
 * the rare case: each check that meets a collected directory costs a raw
 * "CapTP Endo exception" in the worker's log, printed by the daemon's worker.
 */
import { E } from '@endo/far';
import type { PowersRef } from '../daemon/guest-powers.js';
import type { Log } from '../log/log.js';
import { describeError } from '../../providers/describe-error.js';

const ATTEMPTS = 3;

/** The daemon's words when a name points at a formula that was collected. */
export const isCollectedFormula = (error: unknown): boolean =>
  /No reference exists at path/.test(describeError(error));
harden(isCollectedFormula);

/** Whether `directory` can be listed; false when its formula was collected, other failures thrown. */
export const readable = async (powers: unknown, directory: string): Promise<boolean> => {
  try {
    await E(powers as PowersRef).list(directory);
    return true;
  } catch (error) {
    if (isCollectedFormula(error)) return false;
    throw error;
  }
};
harden(readable);

/** Makes `directory` when it is missing or names a collected formula, and says so in the log when it was collected. */
export const ensureDirectory = async (
  powers: PowersRef,
  directory: string,
  log: Log,
): Promise<void> => {
  if (await E(powers).has(directory)) {
    if (await readable(powers, directory)) return;
    log(
      `${directory}/ named a directory the daemon had collected (its formula is gone): making it again`,
    );
  }
  /** Makes it once: false when the daemon collected it as it was made. */
  const makeOnce = async (): Promise<boolean> => {
    try {
      await E(powers).makeDirectory(directory);
    } catch (error) {
      // Collected before its value was ready: makeDirectory itself fails so (seen at f0a46042a).
      if (isCollectedFormula(error)) return false;
      throw error;
    }
    return readable(powers, directory);
  };
  // One attempt after the other: each is checked before the next is made.
  for (let attempt = 1; attempt <= ATTEMPTS; attempt += 1) {
    // eslint-disable-next-line no-await-in-loop
    if (await makeOnce()) return;
    log(`the daemon collected the ${directory}/ just made (attempt ${attempt} of ${ATTEMPTS})`);
  }
  throw Error(`the daemon collected ${directory}/ each of the ${ATTEMPTS} times it was made`);
};
harden(ensureDirectory);
