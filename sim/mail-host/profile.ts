/**
 * The two daemon generations the mail host can play: `f0a46042a` (the Lal/Fae
 * design: eval-proposals, upper-case special names, formula ids in messages)
 * and `newest` (endo branch agent/iroh-preserve-native-datagram-receivers:
 * `@`-names, `endo://` locators in messages, exo-stream readers, message
 * edits, `storeIdentifier`, `evaluate` that runs at once).
 */
import { randomHex256, randomHex512 } from './formula-id.js';

export type DaemonProfile = 'f0a46042a' | 'newest';
export const DAEMON_PROFILES: readonly DaemonProfile[] = harden(['f0a46042a', 'newest']);
harden(DAEMON_PROFILES);

/** The special names of one generation, by role. */
export interface SpecialNames {
  readonly agent: string;
  readonly self: string;
  readonly host: string;
  readonly mail: string;
  /** The host's main worker. */
  readonly main: string;
  /** The host's least-authority powers. */
  readonly none: string;
  readonly endo: string;
  /** The host's directory of caplets the daemon revives at start. */
  readonly pins: string;
}

const OLD_NAMES: SpecialNames = harden({
  agent: 'AGENT',
  self: 'SELF',
  host: 'HOST',
  mail: 'MAIL',
  main: 'MAIN',
  none: 'NONE',
  endo: 'ENDO',
  pins: 'PINS',
});
const NEWEST_NAMES: SpecialNames = harden({
  agent: '@agent',
  self: '@self',
  host: '@host',
  mail: '@mail',
  main: '@main',
  none: '@none',
  endo: '@endo',
  pins: '@pins',
});

export const specialNamesOf = (profile: DaemonProfile): SpecialNames =>
  profile === 'newest' ? NEWEST_NAMES : OLD_NAMES;
harden(specialNamesOf);

/** Random formula numbers and message ids: 512 bits at f0a46042a, 256 in the newest daemon. */
export const randomNumberOf = (profile: DaemonProfile): (() => string) =>
  profile === 'newest' ? randomHex256 : randomHex512;
harden(randomNumberOf);

export const assertProfile = (profile: unknown): DaemonProfile => {
  if (!DAEMON_PROFILES.includes(profile as DaemonProfile)) {
    throw Error(
      `Unknown daemon profile ${JSON.stringify(profile)}; one of ${DAEMON_PROFILES.join(', ')}`,
    );
  }
  return profile as DaemonProfile;
};
harden(assertProfile);
