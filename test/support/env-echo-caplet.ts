/**
 * A caplet for the setup tests: tells HOST it started (before make returns,
 * so the message is there once makeUnconfined settles) and hands back the
 * env it was given.
 */
import { E } from '@endo/far';
import { makeExo } from '@endo/exo';
import { M } from '@endo/patterns';

interface Mailer {
  send(recipient: string, strings: string[], edgeNames: string[], petNames: string[]): void;
}

const EnvEchoInterface = M.interface('EnvEcho', {
  env: M.call().returns(M.record()),
});

export const ECHO_STARTED = 'env-echo started';

export const make = async (powers: Mailer | Promise<Mailer>, _context: unknown, options: { env?: Record<string, string> } = {}) => {
  const env = options.env ?? {};
  await E(powers).send('HOST', [ECHO_STARTED], [], []);
  return makeExo('EnvEcho', EnvEchoInterface, {
    env: () => env,
  });
};
