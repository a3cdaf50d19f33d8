/**
 * Agents (the host and its guests): their formulas (agent, handle, store,
 * mailbox, MAIL hub), special names, and lookup from either of their ids.
 */
import { makeGuardedExo } from './guarded-exo.js';
import { M } from '@endo/patterns';
import { makeMailbox } from './mailbox.js';
import { makePetStore, withSpecialNames } from './pet-store.js';
import { assertNames, namePathFrom, quote } from './pet-name.js';
import type { DirectoryMaker, DirectoryNode } from './directory.js';
import type { FormulaTable } from './formula-table.js';
import type { Mailbox } from './mailbox.js';
import type { PetStore } from './pet-store.js';
import type { FormulaId, NameOrPath } from './types.js';
import { specialNamesOf, type DaemonProfile } from './profile.js';

export interface Agent {
  readonly kind: 'host' | 'guest';
  readonly agentId: FormulaId;
  readonly handleId: FormulaId;
  /** HOST's handle id (for the host itself, its own). */
  readonly hostHandleId: FormulaId;
  readonly names: PetStore;
  readonly directory: DirectoryNode;
  readonly mailbox: Mailbox;
  readonly handle: object;
  /** Set when the daemon could not reload this agent after a restart. */
  loadError: Error | undefined;
  /** How many coming followMessages calls fail as a mailbox that does not load (a fault to inject). */
  followFaults: number;
  /** The live powers object (a new one per daemon incarnation for guests). */
  powers: object;
  /** Bumped by each simulated restart; powers from an older incarnation are disconnected. */
  incarnation: number;
  readonly calls: Map<string, number>;
  /** Bytes written with storeValue, by the first name of the path (`agent-state`, the memory's, `agent-history`). */
  readonly storedBytes: Map<string, number>;
  /** Told the name of each method called on this agent's powers, as it is called (the bench's traces; a guest that did not load fails its formula). */
  readonly callListeners: Set<(method: string) => void>;
  /** Told each time a message is put in this agent's inbox by another's send or reply (for the bench's traces). */
  readonly deliveryListeners: Set<() => void>;
  /** For messages: who this is, e.g. `guest "lal"`. */
  label: string;
}

// Handles carry no methods a caplet can use; they stand for an agent in mail.
const HandleInterface = M.interface('EndoHandle', {}, { defaultGuards: 'passable' });

const MailHubInterface = M.interface('EndoMailHub', {
  has: M.call().rest(M.arrayOf(M.string())).returns(M.promise()),
  identify: M.call().rest(M.arrayOf(M.string())).returns(M.promise()),
  list: M.call().rest(M.arrayOf(M.string())).returns(M.promise()),
  lookup: M.call(M.or(M.string(), M.arrayOf(M.string()))).returns(M.promise()),
});

const makeMailHub = (mailbox: Mailbox) =>
  makeGuardedExo('MailHub', MailHubInterface, {
    async has(...path: string[]) {
      assertNames(path);
      return (
        path.length === 1 &&
        /^\d+$/.test(path[0] as string) &&
        mailbox.get(BigInt(path[0] as string)) !== undefined
      );
    },
    async identify(...path: string[]) {
      assertNames(path);
      return undefined;
    },
    async list(...path: string[]) {
      if (path.length > 0) throw Error('The simulated MAIL hub lists only its top level');
      return harden(mailbox.list().map(record => String(record.number)));
    },
    async lookup(nameOrPath: NameOrPath) {
      const [head, ...rest] = namePathFrom(nameOrPath);
      const record = /^\d+$/.test(head as string) ? mailbox.get(BigInt(head as string)) : undefined;
      if (record === undefined) throw TypeError(`Unknown message number: ${quote(head)}`);
      if (rest.length > 0) throw Error('The simulated MAIL hub does not look inside messages');
      return record;
    },
  });

export const makeAgentRegistry = (
  table: FormulaTable,
  directories: DirectoryMaker,
  now: () => Date,
  profile: DaemonProfile = 'f0a46042a',
) => {
  const special = specialNamesOf(profile);
  const newest = profile === 'newest';
  const byId = new Map<FormulaId, Agent>();

  /** The agent whose agent or handle id this is. */
  const agentFor = (id: FormulaId): Agent | undefined => byId.get(id);

  const assertLoaded = (agent: Agent): Agent => {
    if (agent.loadError) throw agent.loadError;
    return agent;
  };

  /**
   * Formulates an agent. `extraSpecials` are the host-only special names.
   * `makePowers` builds the powers exo for the agent (called again on restart).
   * `mint` makes its ids: this daemon's, or another node's for an agent of a peer daemon.
   */
  const formulateAgent = (
    kind: 'host' | 'guest',
    hostHandleId: FormulaId | undefined,
    makePowers: (agent: Agent) => object,
    extraSpecials: Record<string, FormulaId> = {},
    mint: () => FormulaId = table.mint,
  ): Agent => {
    const agentId = mint();
    const handleId = mint();
    const mailHubId = mint();
    const mailbox = makeMailbox(now, { withDone: newest });
    const specials: Record<string, FormulaId> = {
      ...extraSpecials,
      [special.agent]: agentId,
      [special.self]: handleId,
      [special.host]: hostHandleId ?? handleId,
      [special.mail]: mailHubId,
    };
    // The newest daemon's pet names are any name without "/", "@" or NUL (so HOST is just an unbound name).
    const isPlainName = newest
      ? (name: string) =>
          name.length > 0 &&
          name.length <= 255 &&
          !/[/@\0]/.test(name) &&
          name !== '.' &&
          name !== '..'
      : undefined;
    const names = withSpecialNames(table.watchStore(makePetStore()), harden(specials), isPlainName);
    const directory = directories.makeDirectoryNode(names);
    const handle = makeGuardedExo('Handle', HandleInterface, {});
    const agent: Agent = {
      kind,
      agentId,
      handleId,
      hostHandleId: hostHandleId ?? handleId,
      names,
      directory,
      mailbox,
      handle,
      loadError: undefined,
      followFaults: 0,
      powers: {},
      incarnation: 0,
      calls: new Map(),
      storedBytes: new Map(),
      callListeners: new Set(),
      deliveryListeners: new Set(),
      label: kind === 'host' ? special.host : 'a guest',
    };
    agent.powers = makePowers(agent);
    table.remember(agent.powers, agentId);
    table.register(agentId, {
      type: kind,
      provide: () => assertLoaded(agent).powers,
      node: directory,
    });
    table.register(handleId, { type: 'handle', provide: () => assertLoaded(agent).handle });
    const mailHub = makeMailHub(mailbox);
    table.register(mailHubId, { type: 'mail-hub', provide: () => mailHub });
    table.remember(handle, handleId);
    table.remember(mailHub, mailHubId);
    byId.set(agentId, agent);
    byId.set(handleId, agent);
    return agent;
  };

  /** The agent a message may be sent to through this id, or a clear error. */
  const recipientFor = (id: FormulaId, shownAs: unknown): Agent => {
    const agent = byId.get(id);
    if (agent === undefined) {
      throw Error(
        `Cannot send to ${quote(shownAs)}: it names a ${table.typeOf(id) ?? 'value'}, not an agent`,
      );
    }
    return assertLoaded(agent);
  };

  const all = (): Agent[] => [...new Set(byId.values())];

  return harden({ formulateAgent, agentFor, recipientFor, assertLoaded, all, profile, special });
};
harden(makeAgentRegistry);
export type AgentRegistry = ReturnType<typeof makeAgentRegistry>;
