/**
 * The parts of the simulated daemon below the host: the formula table,
 * directories, agents, mail, the caplet runner, the special formulas
 * (least authority, the main worker, the host's PINS) and the guests.
 */
import { Far } from '@endo/far';
import { makeAgentRegistry, type Agent, type AgentRegistry } from './agents.js';
import { makeCapletRunner, type CapletRunner, type WorkerConnection } from './caplets.js';
import { makeDirectoryMaker } from './directory.js';
import { makeFormulaTable, type FormulaTable } from './formula-table.js';
import { randomHex512 } from './formula-id.js';
import { makeSeededMinter, type SeededIdentity } from './seeded-ids.js';
import { makeGuestPowers } from './guest-powers.js';
import { makeMailOps, type MailOps } from './mail-ops.js';
import { makeChannels, type Channels } from './channels.js';
import { nameChangesPresenter } from './name-changes.js';
import {
  assertProfile,
  randomNumberOf,
  specialNamesOf,
  type DaemonProfile,
  type SpecialNames,
} from './profile.js';
import type { PetStore } from './pet-store.js';
import type { FormulaId } from './types.js';

export interface DaemonPartsOptions {
  now?: (() => Date) | undefined;
  profile?: DaemonProfile | undefined;
  connection?: WorkerConnection | undefined;
  /** Draws the node's number and the first ids from a seed (./seeded-ids.ts); random otherwise. */
  identity?: SeededIdentity | undefined;
}

export interface DaemonParts {
  readonly profile: DaemonProfile;
  readonly special: SpecialNames;
  readonly table: FormulaTable;
  readonly agents: AgentRegistry;
  readonly mail: MailOps;
  readonly caplets: CapletRunner;
  /** The newest daemon's channels (makeChannel): kept across a restart, each made again. */
  readonly channels: Channels;
  /** Every guest formulated, in order (restart reloads each). */
  readonly guests: readonly Agent[];
  /** The host's special names for the least-authority formula, the main worker and PINS. */
  readonly hostSpecials: Record<string, FormulaId>;
  /** The host's PINS directory: what it names is provided again at start and after each collection. */
  readonly pins: PetStore;
  /** The daemon's revivePins: provides every formula PINS names. */
  revivePins(): Promise<void>;
  /** How many ids this daemon has minted (the seeded ones among them). */
  minted(): number;
  /** A guest; with `mint`, one whose ids are another node's (an agent of a peer daemon). */
  formulateGuest(hostHandleId: FormulaId, mint?: () => FormulaId): Agent;
}

export const makeDaemonParts = (options: DaemonPartsOptions = {}): DaemonParts => {
  const now = options.now ?? (() => new Date());
  const profile = assertProfile(options.profile ?? 'f0a46042a');
  const special = specialNamesOf(profile);
  const random = randomNumberOf(profile);
  const minter = makeSeededMinter(random, options.identity);
  const table = makeFormulaTable(minter);
  const directories = makeDirectoryMaker(
    table,
    nameChangesPresenter(profile, table),
    profile !== 'newest',
  );
  const agents = makeAgentRegistry(table, directories, now, profile);
  const mail = makeMailOps(table, agents);
  // At f0a46042a a guest whose mailbox did not load fails its formula when its powers are used,
  // not before: its caplet is handed the powers, and its first call fails (failGuestFormula).
  const caplets = makeCapletRunner(table, profile, options.connection, id =>
    table.provide(id).catch((error: unknown) => {
      const guest = agents.agentFor(id);
      if (profile === 'newest' || guest?.loadError === undefined) throw error;
      return guest.powers;
    }),
  );
  const channels = makeChannels(table, now, randomHex512);
  const guests: Agent[] = [];

  const leastAuthority = Far('EndoLeastAuthority', {});
  const noneId = table.formulate({ type: 'least-authority', provide: () => leastAuthority });
  const mainWorkerId = caplets.formulateWorker();
  const pins = directories.formulateDirectory();
  const revivePins = async (): Promise<void> => {
    const pinned = await pins.node.listIdentifiers();
    await Promise.allSettled(pinned.map(id => table.provide(id)));
  };

  // The newest daemon gives every agent its networks and planes directories (seen by `npm run conformance`).
  const networkSpecials: Record<string, FormulaId> =
    profile === 'newest'
      ? {
          '@nets': directories.formulateDirectory().id,
          '@planes': directories.formulateDirectory().id,
        }
      : {};

  // The failed formula's dependents are cancelled and collected, and at f0a46042a the daemon
  // revives PINS after each collection: a pinned caplet is made again at once, and if its first
  // call fails again, so on (docs/daemon-api.md). One failure at a time per guest.
  const failing = new Set<FormulaId>();
  const failGuestFormula = (guest: Agent) => {
    const reason = guest.loadError;
    if (reason === undefined || failing.has(guest.agentId)) return;
    failing.add(guest.agentId);
    setImmediate(() => {
      void caplets
        .cancelMadeWith(guest.agentId, reason)
        .then(() => revivePins())
        .finally(() => failing.delete(guest.agentId));
    });
  };

  const formulateGuest = (hostHandleId: FormulaId, mint?: () => FormulaId): Agent => {
    const guest = agents.formulateAgent(
      'guest',
      hostHandleId,
      agent => makeGuestPowers(agent, table, mail, profile),
      networkSpecials,
      mint,
    );
    if (profile !== 'newest') guest.callListeners.add(() => failGuestFormula(guest));
    guests.push(guest);
    return guest;
  };

  return {
    profile,
    special,
    table,
    agents,
    mail,
    caplets,
    channels,
    guests,
    hostSpecials: {
      [special.main]: mainWorkerId,
      [special.none]: noneId,
      [special.pins]: pins.id,
      ...networkSpecials,
    },
    pins: pins.store,
    revivePins,
    minted: minter.minted,
    formulateGuest,
  };
};
harden(makeDaemonParts);
