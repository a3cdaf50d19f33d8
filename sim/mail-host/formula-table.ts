/**
 * The simulated daemon's formula graph: what each formula id stands for, how to
 * provide its value, and the reverse map from live objects to ids.
 */
import type { DirectoryNode } from './directory.js';
import type { FormulaId } from './types.js';
import type { IdMinter } from './formula-id.js';
import type { KeptOutcome } from './promise-formula.js';

export type FormulaType =
  | 'directory'
  | 'guest'
  | 'host'
  | 'handle'
  | 'marshal'
  | 'make-unconfined'
  | 'eval'
  | 'promise'
  | 'resolver'
  | 'mail-hub'
  | 'worker'
  | 'least-authority'
  | 'channel';

export interface FormulaEntry {
  readonly type: FormulaType;
  /** The value, or a promise for it; may throw when the formula cannot be revived. */
  provide(): unknown;
  /** For formulas that are name hubs in this process: direct access for path walks. */
  readonly node?: DirectoryNode;
  /** A promise formula: how it stands now, for the simulator's state folder. */
  readonly outcome?: () => KeptOutcome;
}

/** What collection needs of a pet store. */
interface NameIndex {
  list(): readonly string[];
  identifyLocal(name: string): FormulaId | undefined;
  reverseIdentify(id: FormulaId): readonly string[];
  onUnbind(listener: (id: FormulaId) => void): void;
}

/** Told of each formula the table collects (not values: nothing holds on to those). */
export type CollectionListener = (id: FormulaId, type: FormulaType) => void;

/** The daemon's error for a formula whose file is gone (daemon-node-powers.js at f0a46042a). */
const noReference = (id: FormulaId): Error => {
  const [number = ''] = id.split(':');
  return Error(
    `No reference exists at path /endo-state/formulas/${number.slice(0, 2)}/${number.slice(2)}.json`,
  );
};

export const makeFormulaTable = (minter: IdMinter) => {
  const entries = new Map<FormulaId, FormulaEntry>();
  const idForRef = new WeakMap<object, FormulaId>();
  const collected = new Set<FormulaId>();
  // Directories made by makeDirectory: collected, as the daemon does, once no pet name path reaches them.
  const madeDirectories = new Set<FormulaId>();
  const collectionListeners: CollectionListener[] = [];
  let collectNextDirectory = false;

  const register = (id: FormulaId, entry: FormulaEntry): FormulaId => {
    entries.set(id, entry);
    return id;
  };

  /** Mints an id and registers a formula under it. */
  const formulate = (entry: FormulaEntry): FormulaId => register(minter.mint(), entry);

  const provide = async (id: FormulaId): Promise<unknown> => {
    const entry = entries.get(id);
    if (entry === undefined) {
      if (collected.has(id)) throw noReference(id);
      throw Error(`No formula exists for id ${JSON.stringify(id)}`);
    }
    return entry.provide();
  };

  /**
   * Between making a directory and naming it, the daemon at f0a46042a may
   * run a collection (every guest or host call ends with one) that takes the
   * still unnamed directory: the name then points at a formula whose file is
   * gone. Armed by the mail host's collectDuringNextMakeDirectory.
   */
  const afterDirectoryMade = (id: FormulaId): void => {
    madeDirectories.add(id);
    if (!collectNextDirectory) return;
    collectNextDirectory = false;
    entries.delete(id);
    collected.add(id);
  };

  /** Records which formula a live object is, for reverseLookup and storeValue. */
  const remember = (ref: unknown, id: FormulaId): void => {
    if ((typeof ref === 'object' && ref !== null) || typeof ref === 'function') {
      if (!idForRef.has(ref)) idForRef.set(ref, id);
    }
  };

  // Every pet store, so a stored value or a made directory no name refers to
  // any more can be collected (the daemon collects unreferenced formulas;
  // without this a caplet that re-stores its state after every message would
  // grow the table forever).
  const stores = new Set<NameIndex>();
  const isNamed = (id: FormulaId) =>
    [...stores].some(store => store.reverseIdentify(id).length > 0);

  /**
   * Collects what no name reaches any more, as the daemon at f0a46042a does
   * (residence.js): a value simply goes; a made directory goes with every
   * value and directory only it named, and its collection is told to the
   * listeners (the caplet runner ends the workers that hold it).
   */
  const collectIfUnnamed = (id: FormulaId): void => {
    const entry = entries.get(id);
    const collectable =
      entry?.type === 'marshal' || (entry?.type === 'directory' && madeDirectories.has(id));
    if (!entry || !collectable || isNamed(id)) return;
    entries.delete(id);
    if (entry.type === 'marshal') return;
    collected.add(id);
    madeDirectories.delete(id);
    const store = entry.node?.store;
    if (store) {
      stores.delete(store);
      for (const name of store.list()) {
        const child = store.identifyLocal(name);
        if (child !== undefined) collectIfUnnamed(child);
      }
    }
    for (const listener of collectionListeners) listener(id, entry.type);
  };

  /**
   * A collection as f0a46042a runs one when any guest or host call ends
   * (guest.js and host.js wrap every method so): each directory made and not
   * named yet goes.
   */
  const collectUnnamedDirectories = (): void => {
    for (const id of [...madeDirectories]) collectIfUnnamed(id);
  };

  const watchStore = <S extends NameIndex>(store: S): S => {
    stores.add(store);
    // Checked after the current operation: a rename or move unbinds before it rebinds.
    store.onUnbind(id => queueMicrotask(() => collectIfUnnamed(id)));
    return store;
  };

  const idOf = (ref: unknown): FormulaId | undefined =>
    (typeof ref === 'object' && ref !== null) || typeof ref === 'function'
      ? idForRef.get(ref)
      : undefined;

  return {
    nodeNumber: minter.nodeNumber,
    mint: minter.mint,
    register,
    formulate,
    provide,
    remember,
    idOf,
    watchStore,
    /** Whether any pet store names the formula (the daemon keeps what any name reaches). */
    isNamed,
    afterDirectoryMade,
    collectUnnamedDirectories,
    onCollected: (listener: CollectionListener) => {
      collectionListeners.push(listener);
    },
    armDirectoryCollection: () => {
      collectNextDirectory = true;
    },
    size: () => entries.size,
    typeOf: (id: FormulaId): FormulaType | undefined => entries.get(id)?.type,
    outcomeOf: (id: FormulaId): KeptOutcome | undefined => entries.get(id)?.outcome?.(),
    nodeOf: (id: FormulaId): DirectoryNode | undefined => entries.get(id)?.node,
  };
};
harden(makeFormulaTable);
export type FormulaTable = ReturnType<typeof makeFormulaTable>;
