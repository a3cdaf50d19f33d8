/**
 * The daemon's special names, in one place for both generations: the
 * HOST, the guest itself, its powers, its mailbox, the main worker, the
 * least-authority powers and the pins directory (HOST/SELF/AGENT/MAIL/MAIN/
 * NONE/PINS at f0a46042a, @host/@self/@agent/@mail/@main/@none/@pins in the
 * newest). The agent's adapter (./daemon-adapter.ts), the setup scripts
 * (setup/setup-daemon.ts), the policy's default trust and the move of
 * introduced tools all read them here.
 */
import type { Generation } from './generation.js';

export interface SpecialNames {
  /** The HOST: whoever the guest answers to. */
  host: string;
  /** The guest itself. */
  self: string;
  /** The guest's powers (`--powers` of a setup script). */
  agent: string;
  /** The guest's mailbox. */
  mail: string;
  /** The daemon's main worker. */
  worker: string;
  /** The least-authority powers a tool caplet gets. */
  none: string;
  /** The host's directory whose entries the daemon provides again when it starts. */
  pins: string;
}

/** The names a guest's agent uses (the rest are the setup scripts'). */
export type GuestSpecialNames = Pick<SpecialNames, 'host' | 'self' | 'agent' | 'mail'>;

export const SPECIAL_NAMES: Readonly<Record<Generation, SpecialNames>> = harden({
  f0a46042a: {
    host: 'HOST',
    self: 'SELF',
    agent: 'AGENT',
    mail: 'MAIL',
    worker: 'MAIN',
    none: 'NONE',
    pins: 'PINS',
  },
  newest: {
    host: '@host',
    self: '@self',
    agent: '@agent',
    mail: '@mail',
    worker: '@main',
    none: '@none',
    pins: '@pins',
  },
});
harden(SPECIAL_NAMES);

/** The HOST as each daemon names it (whom LAL_TRUSTED_SENDERS trusts when unset). */
export const HOST_NAMES: readonly string[] = harden(
  Object.values(SPECIAL_NAMES).map(names => names.host),
);
harden(HOST_NAMES);

/** A daemon's special name, never a pet name: upper case at f0a46042a (HOST), `@` in the newest (@host). */
export const isSpecialName = (name: string): boolean => /^(?:[A-Z][A-Z0-9-]*|@.*)$/.test(name);
harden(isSpecialName);
