/** A directory's reading methods: has, identify, locate, list, listIdentifiers, lookup, reverseLookup. */
import { E } from '@endo/far';
import { parseFormulaId } from './formula-id.js';
import { assertNames, namePathFrom, quote } from './pet-name.js';
import type { HubForId, RemoteHub, TailHub } from './directory-hubs.js';
import type { FormulaTable } from './formula-table.js';
import type { PetStore } from './pet-store.js';
import type { FormulaId, NameOrPath } from './types.js';

export const makeDirectoryReads = (
  store: PetStore,
  table: FormulaTable,
  hubForId: HubForId,
  tailHub: TailHub,
) => {
  const lookup = async (nameOrPath: NameOrPath): Promise<unknown> => {
    const [head, ...tail] = namePathFrom(nameOrPath) as [string, ...string[]];
    const id = store.identifyLocal(head);
    if (id === undefined) throw TypeError(`Unknown pet name: ${quote(head)}`);
    if (tail.length === 0) return table.provide(id);
    const hub = await hubForId(id);
    return 'node' in hub
      ? hub.node.lookup(tail)
      : tail.reduce<Promise<unknown>>(
          (current, name) => E(current as unknown as RemoteHub).lookup(name),
          Promise.resolve(hub.remote),
        );
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
    return E((await E(hub.remote).lookup(name)) as RemoteHub).list();
  };

  return {
    has,
    identify,
    locate: async (...path: string[]) => {
      const id = await identify(...path);
      if (id === undefined) return undefined;
      const { number, node: nodeNumber } = parseFormulaId(id);
      return `endo://${nodeNumber}/?id=${number}&type=${table.typeOf(id) ?? 'unknown'}`;
    },
    list,
    listIdentifiers: async (...path: string[]) => {
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
    reverseLookup: async (value: unknown) => {
      const id = table.idOf(await value);
      return id === undefined ? harden([]) : store.reverseIdentify(id);
    },
    followNameChanges: () => store.followNameChanges(),
  };
};
harden(makeDirectoryReads);
