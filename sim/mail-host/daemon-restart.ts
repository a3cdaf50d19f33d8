/**
 * A simulated daemon restart: caplets stopped, connections broken, every
 * mailbox reloaded (a guest whose mailbox does not load keeps the daemon's
 * error), guests given powers of the new incarnation, then PINS revived.
 */
import { makeGuestPowers } from './guest-powers.js';
import type { Agent } from './agents.js';
import type { DaemonParts } from './daemon-parts.js';
import type { Settlement } from './types.js';

export const makeRestart = (
  host: Agent,
  { table, mail, caplets, channels, guests, profile, revivePins }: DaemonParts,
) => {
  const settledFor = (promiseId: string): Promise<Settlement> =>
    table.provide(promiseId).then(
      () => 'fulfilled',
      () => 'rejected',
    );

  const restart = async (): Promise<void> => {
    const stuck = host.mailbox.unloadable();
    if (stuck.length > 0) {
      const list = stuck.map(({ number, type }) => `#${number} (${type})`).join(', ');
      throw Error(
        `Cannot restart: HOST's mailbox holds undismissed ${list}; the daemon cannot reload eval-proposal messages, so HOST would fail to load. Dismiss them first.`,
      );
    }
    await caplets.stopAll(harden(Error('The daemon is restarting')));
    const disconnected = harden(Error('Disconnected: the daemon restarted'));
    for (const guest of guests) {
      guest.incarnation += 1;
      guest.mailbox.disconnect(disconnected);
      try {
        guest.mailbox.reload(settledFor);
        guest.loadError = undefined;
      } catch (error) {
        // The daemon's own error, as every call on the guest's powers then rejects with it.
        guest.loadError = error as Error;
      }
      guest.powers = makeGuestPowers(guest, table, mail, profile);
      table.remember(guest.powers, guest.agentId);
    }
    host.mailbox.reload(settledFor);
    channels.restart();
    // Only pinned formulas are provided at start; the rest wait for a look-up.
    await revivePins();
  };
  return restart;
};
harden(makeRestart);
