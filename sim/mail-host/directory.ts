/**
 * Directory operations over a pet store, walking name paths through nested
 * directories (directly for this process's directories, through E() otherwise).
 */
import { E } from '@endo/far';
import { makeGuardedExo } from './guarded-exo.js';
import { M } from '@endo/patterns';
import type { InterfaceGuard } from '@endo/patterns';
import { parseFormulaId } from './formula-id.js';
import { makeIteratorRef } from './iterator-ref.js';
import { assertNamePath, assertNames, assertPetNamePath, namePathFrom, quote } from './pet-name.js';
import { makePetStore } from './pet-store.js';
import type { FormulaTable } from './formula-table.js';
import type { PetStore } from './pet-store.js';
import type { FormulaId, GuestPowers, NameChange, NameOrPath } from './types.js';
import type { Subscription } from './topic.js';

/** A name hub's methods as the guest has them, plus its store and a local change feed. */
export interface DirectoryNode
  extends Pick<
    GuestPowers,
    'has' | 'identify' | 'locate' | 'list' | 'listIdentifiers' | 'lookup' | 'reverseLookup' | 'write' | 'remove' | 'move' | 'copy' | 'makeDirectory'
  > {
  readonly store: PetStore;
  followNameChanges(): Subscription<NameChange>;
}

/** A remote name hub, as far as directories call it. */
interface RemoteHub {
  has(...path: string[]): Promise<boolean>;
  identify(...path: string[]): Promise<FormulaId | undefined>;
  list(...path: string[]): Promise<readonly string[]>;
  lookup(nameOrPath: NameOrPath): Promise<unknown>;
  write(nameOrPath: NameOrPath, id: FormulaId): Promise<void>;
  remove(...path: string[]): Promise<void>;
  move(fromPath: readonly string[], toPath: readonly string[]): Promise<void>;
}

const NameShape = M.string();
const NamePathShape = M.arrayOf(NameShape);
const NameOrPathShape = M.or(NameShape, NamePathShape);

export const DirectoryInterface: InterfaceGuard = M.interface('EndoDirectory', {
  help: M.call().optional(M.string()).returns(M.string()),
  has: M.call().rest(NamePathShape).returns(M.promise()),
  identify: M.call().rest(NamePathShape).returns(M.promise()),
  locate: M.call().rest(NamePathShape).returns(M.promise()),
  list: M.call().rest(NamePathShape).returns(M.promise()),
  listIdentifiers: M.call().rest(NamePathShape).returns(M.promise()),
  followNameChanges: M.call().returns(M.remotable()),
  lookup: M.call(NameOrPathShape).returns(M.promise()),
  reverseLookup: M.call(M.any()).returns(M.promise()),
  write: M.call(NameOrPathShape, M.string()).returns(M.promise()),
  remove: M.call().rest(NamePathShape).returns(M.promise()),
  move: M.call(NamePathShape, NamePathShape).returns(M.promise()),
  copy: M.call(NamePathShape, NamePathShape).returns(M.promise()),
  makeDirectory: M.call(NameOrPathShape).returns(M.promise()),
});

const directoryHelp = `EndoDirectory - a namespace of pet names.
Methods: has, identify, locate, list, listIdentifiers, followNameChanges, lookup,
reverseLookup, write, remove, move, copy, makeDirectory.`;

export const makeDirectoryMaker = (table: FormulaTable) => {
  /** A hub reached by a path: this process's node when it is one, else the remote value. */
  type Hub = { node: DirectoryNode } | { remote: RemoteHub };

  const hubForId = async (id: FormulaId): Promise<Hub> => {
    const node = table.nodeOf(id);
    if (node) return { node };
    return { remote: (await table.provide(id)) as unknown as RemoteHub };
  };

  const makeDirectoryNode = (store: PetStore): DirectoryNode => {
    const lookup = async (nameOrPath: NameOrPath): Promise<unknown> => {
      const [head, ...tail] = namePathFrom(nameOrPath) as [string, ...string[]];
      const id = store.identifyLocal(head);
      if (id === undefined) throw TypeError(`Unknown pet name: ${quote(head)}`);
      if (tail.length === 0) return table.provide(id);
      const hub = await hubForId(id);
      return 'node' in hub ? hub.node.lookup(tail) : tail.reduce<Promise<unknown>>(
        (current, name) => E(current as unknown as RemoteHub).lookup(name),
        Promise.resolve(hub.remote),
      );
    };

    /** The hub holding the last name of a path, and that name. */
    const tailHub = async (path: readonly string[]): Promise<{ hub: Hub; name: string }> => {
      assertNamePath(path);
      const name = path[path.length - 1] as string;
      if (path.length === 1) return { hub: { node }, name };
      const prefix = path.slice(0, -1);
      const [head, ...rest] = prefix as [string, ...string[]];
      const headId = store.identifyLocal(head);
      if (headId === undefined) throw TypeError(`Unknown pet name: ${quote(head)}`);
      let hub = await hubForId(headId);
      for (const step of rest) {
        if ('node' in hub) {
          const stepId = hub.node.store.identifyLocal(step);
          if (stepId === undefined) throw TypeError(`Unknown pet name: ${quote(step)}`);
          hub = await hubForId(stepId);
        } else {
          hub = { remote: (await E(hub.remote).lookup(step)) as RemoteHub };
        }
      }
      return { hub, name };
    };

    const has = async (...path: string[]): Promise<boolean> => {
      assertNames(path);
      if (path.length === 1) return store.has(path[0] as string);
      const { hub, name } = await tailHub(path);
      return 'node' in hub ? hub.node.has(name) : E(hub.remote).has(name);
    };

    const identify = async (...path: string[]): Promise<FormulaId | undefined> => {
      assertNames(path);
      if (path.length === 1) return store.identifyLocal(path[0] as string);
      const { hub, name } = await tailHub(path);
      return 'node' in hub ? hub.node.identify(name) : E(hub.remote).identify(name);
    };

    const list = async (...path: string[]): Promise<readonly string[]> => {
      assertNames(path);
      if (path.length === 0) return store.list();
      const { hub, name } = await tailHub(path);
      if ('node' in hub) {
        const id = hub.node.store.identifyLocal(name);
        if (id === undefined) throw TypeError(`Unknown pet name: ${quote(name)}`);
        const target = await hubForId(id);
        return 'node' in target ? target.node.list() : E(target.remote).list();
      }
      return E(await E(hub.remote).lookup(name) as RemoteHub).list();
    };

    const write = async (nameOrPath: NameOrPath, id: FormulaId): Promise<void> => {
      const { prefixPath, petName } = assertPetNamePath(namePathFrom(nameOrPath));
      if (prefixPath.length === 0) {
        store.write(petName, id);
        return;
      }
      const { hub } = await tailHub([...prefixPath, petName]);
      if ('node' in hub) await hub.node.write([petName], id);
      else await E(hub.remote).write([petName], id);
    };

    const remove = async (...path: string[]): Promise<void> => {
      const { prefixPath, petName } = assertPetNamePath(path);
      if (prefixPath.length === 0) {
        store.remove(petName);
        return;
      }
      const { hub } = await tailHub(path);
      if ('node' in hub) await hub.node.remove(petName);
      else await E(hub.remote).remove(petName);
    };

    const node: DirectoryNode = {
      store,
      has,
      identify,
      locate: async (...path) => {
        const id = await identify(...path);
        if (id === undefined) return undefined;
        const { number, node: nodeNumber } = parseFormulaId(id);
        return `endo://${nodeNumber}/?id=${number}&type=${table.typeOf(id) ?? 'unknown'}`;
      },
      list,
      listIdentifiers: async (...path) => {
        const names = await list(...path);
        const ids = new Set<FormulaId>();
        await Promise.all(
          names.map(async name => {
            const id = await identify(...path, name);
            if (id !== undefined) ids.add(id);
          }),
        );
        return harden([...ids].sort());
      },
      lookup,
      reverseLookup: async value => {
        const id = table.idOf(await value);
        return id === undefined ? harden([]) : store.reverseIdentify(id);
      },
      write,
      remove,
      move: async (fromPath, toPath) => {
        const from = assertPetNamePath(fromPath);
        const to = assertPetNamePath(toPath);
        const samePrefix =
          from.prefixPath.length === to.prefixPath.length &&
          from.prefixPath.every((name, index) => name === to.prefixPath[index]);
        if (samePrefix) {
          if (from.prefixPath.length === 0) {
            store.rename(from.petName, to.petName);
            return;
          }
          const { hub } = await tailHub(fromPath);
          if ('node' in hub) await hub.node.move([from.petName], [to.petName]);
          else await E(hub.remote).move([from.petName], [to.petName]);
          return;
        }
        // Across directories: write the new name first so a failure keeps the old one.
        const id = await identify(...fromPath);
        if (id === undefined) throw Error(`Unknown name: ${quote(fromPath)}`);
        await write(toPath, id);
        await remove(...fromPath);
      },
      copy: async (fromPath, toPath) => {
        assertNamePath(fromPath);
        assertPetNamePath(toPath);
        const id = await identify(...fromPath);
        if (id === undefined) throw Error(`Unknown name: ${quote(fromPath)}`);
        await write(toPath, id);
      },
      makeDirectory: async nameOrPath => {
        // Always a new, empty directory: an existing name is rebound to it.
        const { id, value } = formulateDirectory();
        table.afterDirectoryMade(id);
        await write(nameOrPath, id);
        return value;
      },
      followNameChanges: () => store.followNameChanges(),
    };
    return node;
  };

  /** Makes the exo other code reaches a directory through. */
  const makeDirectoryExo = (node: DirectoryNode) =>
    makeGuardedExo('EndoDirectory', DirectoryInterface, {
      help: (methodName?: string) =>
        methodName ? `No documentation available for method "${methodName}".` : directoryHelp,
      has: (...path: string[]) => node.has(...path),
      identify: (...path: string[]) => node.identify(...path),
      locate: (...path: string[]) => node.locate(...path),
      list: (...path: string[]) => node.list(...path),
      listIdentifiers: (...path: string[]) => node.listIdentifiers(...path),
      followNameChanges: () => makeIteratorRef(node.followNameChanges()),
      lookup: (nameOrPath: NameOrPath) => node.lookup(nameOrPath),
      reverseLookup: (value: unknown) => node.reverseLookup(value),
      write: (nameOrPath: NameOrPath, id: string) => node.write(nameOrPath, id),
      remove: (...path: string[]) => node.remove(...path),
      move: (fromPath: string[], toPath: string[]) => node.move(fromPath, toPath),
      copy: (fromPath: string[], toPath: string[]) => node.copy(fromPath, toPath),
      makeDirectory: (nameOrPath: NameOrPath) => node.makeDirectory(nameOrPath),
    });

  /** A new empty directory formula. */
  const formulateDirectory = () => {
    const store = table.watchStore(makePetStore());
    const node = makeDirectoryNode(store);
    const value = makeDirectoryExo(node);
    const id = table.formulate({ type: 'directory', provide: () => value, node });
    table.remember(value, id);
    return { id, value, node, store };
  };

  return { makeDirectoryNode, formulateDirectory };
};
export type DirectoryMaker = ReturnType<typeof makeDirectoryMaker>;
