/**
 * Whom a call's effect reaches, by identity, never by how the model spelt
 * it (behaviour 9.10): the turn's own sender, the HOST, or someone else. A
 * recipient's pet name is identified; a message's sender is read from the
 * inbox. A recipient or message that does not exist reaches nobody (the call
 * can only fail, and says why); any other that cannot be told apart counts
 * as someone else, so the HOST is asked rather than not.
 */
import { E } from '@endo/far';
import { identifyPath } from './identify-path.js';
import type { PowersRef } from '../daemon/guest-powers.js';
import type { MessageRecord } from '../mail/message-record.js';
import type { Origin } from '../mail/origin.js';
import type { Effect, Party } from './side-effects.js';

export interface CallParties {
  partyOf(effect: Effect, origin: Origin | undefined): Promise<Party | undefined>;
}

export const makeCallParties = (options: {
  powers: PowersRef;
  /** The formula id a message's `from` names (daemon/daemon-adapter.ts). */
  idOf: (idOrLocator: unknown) => string | undefined;
  hostName: string;
}): CallParties => {
  const { powers, idOf, hostName } = options;
  const identify = (path: readonly string[]) => identifyPath(powers, path);
  const senderOfMessage = async (number: bigint): Promise<string | undefined> => {
    try {
      const messages = (await E(powers).listMessages()) as MessageRecord[];
      const found = messages.find(message => message.number === number);
      return found === undefined ? undefined : idOf(found.from);
    } catch {
      return undefined;
    }
  };
  return {
    async partyOf(effect, origin) {
      if (effect.kind === 'write') return undefined;
      const [target, host, sender] = await Promise.all([
        effect.kind === 'to' ? identify(effect.name.split('/')) : senderOfMessage(effect.number),
        identify([hostName]),
        // A wake-up's message may be gone: then its sender by the name it was served under.
        origin === undefined
          ? undefined
          : senderOfMessage(origin.number).then(id => id ?? identify([origin.sender])),
      ]);
      // No such recipient or message: the call fails as it would anyway, with its own words.
      if (target === undefined) return 'nobody';
      if (target === host) return 'host';
      return target === sender ? 'sender' : 'other';
    },
  };
};
harden(makeCallParties);
