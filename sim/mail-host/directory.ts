/**
 * Directories: pet stores whose methods walk name paths through nested
 * directories (directly for this process's directories, through E()
 * otherwise). The path walk, the reading and the changing methods and the
 * exo each have a module of their own; this one puts a directory together.
 */
import { makeDirectoryEdits } from './directory-edits.js';
import { makeDirectoryExo } from './directory-exo.js';
import { makeHubForId, makeTailHub } from './directory-hubs.js';
import { makeDirectoryReads } from './directory-reads.js';
import { makePetStore } from './pet-store.js';
import type { FormulaTable } from './formula-table.js';
import type { PetStore } from './pet-store.js';
import type { GuestPowers, NameChange } from './types.js';
import type { Subscription } from './topic.js';

/** A name hub's methods as the guest has them, plus its store and a local change feed. */
export interface DirectoryNode extends Pick<
  GuestPowers,
  | 'has'
  | 'identify'
  | 'locate'
  | 'list'
  | 'listIdentifiers'
  | 'lookup'
  | 'reverseLookup'
  | 'write'
  | 'remove'
  | 'move'
  | 'copy'
  | 'makeDirectory'
> {
  readonly store: PetStore;
  followNameChanges(): Subscription<NameChange>;
}

/**
 * How a directory's `followNameChanges` answers: an iterator reference at
 * f0a46042a, an exo-stream reader whose changes carry the formula's `type`
 * in the newest daemon (its directory.js, `enrichWithType`).
 */
export type PresentNameChanges = (changes: Subscription<NameChange>) => unknown;

/**
 * `agentCallsCollect`: at f0a46042a every guest or host call ends with a
 * collection (guest.js, host.js), and so does the lookup a path walk makes
 * through one: a directory made at such a path (the HOST's
 * `makeDirectory([guest, 'agent-state', 'held'])`) is collected before it is
 * named, deterministically. The newest daemon pins a directory it makes until
 * it is named (directory.js, makeDirectory).
 */
export const makeDirectoryMaker = (
  table: FormulaTable,
  presentChanges: PresentNameChanges,
  agentCallsCollect: boolean,
) => {
  const hubForId = makeHubForId(table);
  const agentLookedUp = agentCallsCollect ? table.collectUnnamedDirectories : () => {};

  const makeDirectoryNode = (store: PetStore): DirectoryNode => {
    const tailHub = makeTailHub(store, hubForId, () => node, table.typeOf, agentLookedUp);
    const reads = makeDirectoryReads(store, table, hubForId, tailHub);
    const node: DirectoryNode = {
      store,
      ...reads,
      // makeDirectory's directory may be collected before it is named (table.afterDirectoryMade).
      ...makeDirectoryEdits(store, tailHub, reads.identify, () => {
        const made = formulateDirectory();
        table.afterDirectoryMade(made.id);
        return made;
      }),
    };
    return node;
  };

  /** A new empty directory formula. */
  const formulateDirectory = () => {
    const store = table.watchStore(makePetStore());
    const node = makeDirectoryNode(store);
    const value = makeDirectoryExo(node, presentChanges);
    const id = table.formulate({ type: 'directory', provide: () => value, node });
    table.remember(value, id);
    return { id, value, node, store };
  };

  return { makeDirectoryNode, formulateDirectory };
};
harden(makeDirectoryMaker);
export type DirectoryMaker = ReturnType<typeof makeDirectoryMaker>;
