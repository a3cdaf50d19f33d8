/**
 * The caplet the conformance sequence makes with makeUnconfined to see how
 * the daemon hands back a caplet's env, before and after a restart (the
 * daemon makes it again from its formula as stored): `env()` returns what
 * `make` was given.
 */
import { Far } from '@endo/far';

export const make = (
  _powers: unknown,
  _context: unknown,
  options: { env?: Record<string, string> } = {},
) => {
  const env = harden({ ...(options.env ?? {}) });
  return Far('ConformanceEnv', { env: () => env });
};
harden(make);
