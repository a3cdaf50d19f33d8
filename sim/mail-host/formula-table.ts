/**
 * The simulated daemon's formula graph: what each formula id stands for, how to
 * provide its value, and the reverse map from live objects to ids.
 */
import type { DirectoryNode } from './directory.js';
import type { FormulaId } from './types.js';
import type { IdMinter } from './formula-id.js';

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
  | 'least-authority';

export interface FormulaEntry {
  readonly type: FormulaType;
  /** The value, or a promise for it; may throw when the formula cannot be revived. */
  provide(): unknown;
  /** For formulas that are name hubs in this process: direct access for path walks. */
  readonly node?: DirectoryNode;
}

/** What collection needs of a pet store. */
interface NameIndex {
  reverseIdentify(id: FormulaId): readonly string[];
  onUnbind(listener: (id: FormulaId) => void): void;
}

export const makeFormulaTable = (minter: IdMinter) => {
  const entries = new Map<FormulaId, FormulaEntry>();
  const idForRef = new WeakMap<object, FormulaId>();

  const register = (id: FormulaId, entry: FormulaEntry): FormulaId => {
    entries.set(id, entry);
    return id;
  };

  /** Mints an id and registers a formula under it. */
  const formulate = (entry: FormulaEntry): FormulaId => register(minter.mint(), entry);

  const provide = async (id: FormulaId): Promise<unknown> => {
    const entry = entries.get(id);
    if (entry === undefined) throw Error(`No formula exists for id ${JSON.stringify(id)}`);
    return entry.provide();
  };

  /** Records which formula a live object is, for reverseLookup and storeValue. */
  const remember = (ref: unknown, id: FormulaId): void => {
    if ((typeof ref === 'object' && ref !== null) || typeof ref === 'function') {
      if (!idForRef.has(ref)) idForRef.set(ref, id);
    }
  };

  // Every pet store, so a stored value no name refers to any more can be collected
  // (the daemon collects unreferenced formulas; without this a caplet that
  // re-stores its state after every message would grow the table forever).
  const stores = new Set<NameIndex>();
  const watchStore = <S extends NameIndex>(store: S): S => {
    stores.add(store);
    store.onUnbind(id => {
      if (entries.get(id)?.type !== 'marshal') return;
      // Checked after the current operation: a rename or move unbinds before it rebinds.
      queueMicrotask(() => {
        for (const each of stores) if (each.reverseIdentify(id).length > 0) return;
        entries.delete(id);
      });
    });
    return store;
  };

  const idOf = (ref: unknown): FormulaId | undefined =>
    (typeof ref === 'object' && ref !== null) || typeof ref === 'function' ? idForRef.get(ref) : undefined;

  return {
    nodeNumber: minter.nodeNumber,
    mint: minter.mint,
    register,
    formulate,
    provide,
    remember,
    idOf,
    watchStore,
    size: () => entries.size,
    typeOf: (id: FormulaId): FormulaType | undefined => entries.get(id)?.type,
    nodeOf: (id: FormulaId): DirectoryNode | undefined => entries.get(id)?.node,
  };
};
export type FormulaTable = ReturnType<typeof makeFormulaTable>;
