/**
 * Who a message in HOST's inbox is from, as the person reads it, on either
 * daemon: a message names its sender by formula id at f0a46042a and by an
 * `endo://…?type=handle` locator in the newest (docs/daemon-api.md), read
 * back to its id by the agent's own reader, so every part of the simulator
 * that names a sender reads both alike.
 */
import { E } from '@endo/far';
import { idFromLocator } from '../../src/daemon/daemon-adapter.js';
import type { HostPowers } from '../mail-host/index.js';

/** 'you' for HOST itself, else HOST's first name for the sender ('someone' when it has none). */
export const makeSenderNames =
  (host: HostPowers, hostId: string) =>
  async (from: unknown): Promise<string> => {
    const id = idFromLocator(from);
    if (id === undefined) return 'someone';
    if (id === hostId) return 'you';
    const names = await E(host).reverseIdentify(id);
    return names[0] ?? 'someone';
  };
harden(makeSenderNames);
