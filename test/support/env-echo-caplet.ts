/**
 * A caplet for the setup tests: tells HOST (@host) it started (before make returns,
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

export const make = async (
  powers: Mailer | Promise<Mailer>,
  _context: unknown,
  options: { env?: Record<string, string> } = {},
) => {
  const env = options.env ?? {};
  // HOST at f0a46042a; in the newest daemon HOST is an ordinary (unbound) name and the host is @host.
  await Promise.resolve(E(powers).send('HOST', [ECHO_STARTED], [], [])).catch(() =>
    E(powers).send('@host', [ECHO_STARTED], [], []),
  );
  return makeExo('EnvEcho', EnvEchoInterface, {
    env: () => env,
  });
};
