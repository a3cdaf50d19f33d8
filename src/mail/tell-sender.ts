/**
 * Says something to the sender of a message on the agent's behalf: a reply
 * to the message, or, when the message is gone (the daemon cannot reply to
 * a dismissed one), a new message to the sender by pet name.
 */
import { E } from '@endo/far';
import type { PowersRef } from '../daemon/guest-powers.js';
import type { Log } from '../log/log.js';
import type { Origin } from './origin.js';
import { describeError } from '../../providers/describe-error.js';

export type TellSender = (origin: Origin | undefined, text: string) => Promise<void>;

/** `redact` hides secret values (the auth token) even when the model wrote them. */
export const makeTellSender =
  (powers: PowersRef, log: Log, redact: (text: string) => string, hostName = 'HOST'): TellSender =>
  async (origin, said) => {
    const text = redact(said);
    try {
      if (origin === undefined) {
        await E(powers).send(hostName, [text], [], []);
      } else {
        await E(powers).reply(origin.number, [text], [], []);
      }
    } catch (error) {
      const to = origin?.sender ?? hostName;
      await Promise.resolve(E(powers).send(to, [text], [], [])).catch(() =>
        log(`could not tell ${to}: ${describeError(error)}`),
      );
    }
  };
harden(makeTellSender);
