/** A directory's changing methods: write, remove, move, copy, makeDirectory. */
import { E } from '@endo/far';
import { assertNamePath, assertPetNamePath, namePathFrom, quote } from './pet-name.js';
import type { TailHub } from './directory-hubs.js';
import type { PetStore } from './pet-store.js';
import type { FormulaId, NameOrPath } from './types.js';

export const makeDirectoryEdits = (
  store: PetStore,
  tailHub: TailHub,
  identify: (...path: string[]) => Promise<FormulaId | undefined>,
  formulateDirectory: () => { id: FormulaId; value: unknown },
) => {
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

  const move = async (fromPath: readonly string[], toPath: readonly string[]) => {
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
  };

  return {
    write,
    remove,
    move,
    copy: async (fromPath: readonly string[], toPath: readonly string[]) => {
      assertNamePath(fromPath);
      assertPetNamePath(toPath);
      const id = await identify(...fromPath);
      if (id === undefined) throw Error(`Unknown name: ${quote(fromPath)}`);
      await write(toPath, id);
    },
    makeDirectory: async (nameOrPath: NameOrPath) => {
      // Always a new, empty directory: an existing name is rebound to it.
      const { id, value } = formulateDirectory();
      await write(nameOrPath, id);
      return value;
    },
  };
};
harden(makeDirectoryEdits);
