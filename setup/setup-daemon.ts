/**
 * What the setup scripts need to know about the daemon they provision in:
 * its generation, told from the host powers' method names as the agent
 * tells it (src/daemon/generation.ts), and the names and calls that differ.
 * f0a46042a: `endo run … --powers AGENT`, the worker `MAIN`, the powers
 * `NONE`, the pins directory `PINS`, `write`. The newest daemon (endo branch
 * agent/iroh-preserve-native-datagram-receivers): `--powers @agent`, `@main`,
 * `@none`, `@pins`, `storeIdentifier` (no `write`).
 */
import { E } from '@endo/far';
import { detectGeneration, type Generation } from '../src/daemon/generation.js';
import { SPECIAL_NAMES } from '../src/daemon/special-names.js';

type Awaitable<T> = T | Promise<T>;

/** A directory that names formula ids: `write` at f0a46042a, `storeIdentifier` in the newest daemon. */
interface IdentifierStore {
  write?(nameOrPath: string | string[], id: string): Awaitable<void>;
  storeIdentifier?(nameOrPath: string | string[], id: string): Awaitable<void>;
}

export interface SetupDaemon {
  readonly generation: Generation;
  /** The host's name for its own powers, as `endo run --powers` takes it. */
  readonly agent: string;
  /** The worker the agents and tool caplets run on: the daemon's own. */
  readonly worker: string;
  /** The least-authority powers a tool caplet gets. */
  readonly none: string;
  /** The host's directory whose entries the daemon provides again when it starts (its revivePins). */
  readonly pins: string;
  /** Names `id` at `path` in `directory` (the host or a guest). */
  storeIdentifier(directory: unknown, path: string[], id: string): Promise<void>;
}

const setupDaemonFor = (generation: Generation): SetupDaemon =>
  harden({
    generation,
    agent: SPECIAL_NAMES[generation].agent,
    worker: SPECIAL_NAMES[generation].worker,
    none: SPECIAL_NAMES[generation].none,
    pins: SPECIAL_NAMES[generation].pins,
    storeIdentifier: async (directory: unknown, path: string[], id: string) => {
      const store = E(directory as IdentifierStore) as unknown as Required<{
        [K in keyof IdentifierStore]: (nameOrPath: string[], id: string) => Promise<void>;
      }>;
      await (generation === 'newest'
        ? store.storeIdentifier(harden(path), id)
        : store.write(harden(path), id));
    },
  });

/** Tells the generation from the host powers' method names (`storeIdentifier`, `editMessage` ⇒ newest). */
export const readSetupDaemon = async (host: unknown): Promise<SetupDaemon> =>
  setupDaemonFor((await detectGeneration(host)).generation);
harden(readSetupDaemon);
