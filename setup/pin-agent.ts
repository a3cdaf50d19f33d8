/**
 * Pins the agent caplet in the host's PINS directory, under the name the host
 * knows it by. After `endo restart` the daemon makes nothing again until
 * something looks it up, except what PINS names (its revivePins): a pinned
 * agent comes back by itself and answers the mail that arrived meanwhile.
 * Tool caplets need no pin: the agent looks them up when it uses them, which
 * makes them again. Re-runnable: the pin is rewritten only when it names
 * another caplet (e.g. after LAL_RESTART=1), which lets the old one be collected.
 */
import { makeError, q, X } from '@endo/errors';
import { E } from '@endo/far';
import type { SetupHostRef } from './setup-host.js';
import type { SetupDaemon } from './setup-daemon.js';
import type { Say } from './say.js';
import { describeError } from '../providers/describe-error.js';

export type PinOutcome = 'pinned' | 'kept' | 'unpinned' | 'none';

/**
 * Removes the pin before the agent is replaced: the daemon revives PINS
 * after each collection, so a pinned agent that is cancelled comes back.
 */
const unpinAgent = async (
  host: SetupHostRef,
  daemon: SetupDaemon,
  controllerName: string,
): Promise<void> => {
  const { pins } = daemon;
  if ((await E(host).identify(pins, controllerName)) !== undefined)
    await E(host).remove(pins, controllerName);
};

/**
 * Unpins and cancels a running caplet before a new one is made under its
 * name (LAL_RESTART=1): makeUnconfined would otherwise leave the old one
 * running beside it, and its pin would revive it.
 */
export const stopToReplace = async (
  host: SetupHostRef,
  daemon: SetupDaemon,
  controllerName: string,
  say: Say,
): Promise<void> => {
  await unpinAgent(host, daemon, controllerName);
  say(`stopping the old agent "${controllerName}"`);
  await Promise.resolve(E(host).cancel(controllerName)).catch((error: unknown) =>
    say(`could not stop "${controllerName}" first (${describeError(error)}); replacing it anyway`),
  );
};
harden(stopToReplace);

export const pinAgent = async (
  host: SetupHostRef,
  daemon: SetupDaemon,
  controllerName: string,
  pin: boolean,
  say: Say,
): Promise<PinOutcome> => {
  const { pins } = daemon;
  const pinnedId = await E(host).identify(pins, controllerName);
  if (!pin) {
    if (pinnedId === undefined) return 'none';
    await E(host).remove(pins, controllerName);
    say(
      `LAL_PIN=0: unpinned "${controllerName}"; after endo restart it starts only when something looks it up`,
    );
    return 'unpinned';
  }
  const id = await E(host).identify(controllerName);
  if (id === undefined)
    throw makeError(X`Cannot pin ${q(controllerName)}: the host has no such name`);
  if (pinnedId === id) return 'kept';
  await daemon.storeIdentifier(host, [pins, controllerName], id);
  say(
    `pinned "${controllerName}" in ${pins}: the daemon starts it again after endo restart (LAL_PIN=0 to opt out)`,
  );
  return 'pinned';
};
harden(pinAgent);
