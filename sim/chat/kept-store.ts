/**
 * What the agent stored in its guest's directory, kept in the simulator's
 * state folder between runs, as the daemon keeps a guest's store: the text
 * values at the top and in the folders one level down (its memory in
 * `agent-state/`, its history's chunks in `agent-history/`). Tools and other capabilities are not kept (a new run
 * has new ones). Saved after each turn and on leaving, written whole to a
 * new file then renamed, so a run that is killed leaves the last save.
 */
import { MEMORY_PATH, OLD_MEMORY_NAME } from '../../src/daemon/own-names.js';
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { E } from '@endo/far';

const FILE = 'store.json';
const VERSION = 1;

interface KeptStore {
  version: number;
  values: Record<string, string>;
  folders: Record<string, Record<string, string>>;
}

/** The guest's powers, as far as keeping its store needs them. */
interface StorePowers {
  list(...path: string[]): unknown;
  lookup(path: string | string[]): unknown;
  storeValue(value: unknown, path: string | string[]): unknown;
  makeDirectory(path: string | string[]): unknown;
}

/** The memory, at its place (`agent-state/memory`) or, in a state folder of an earlier version, at the top. */
const isMemory = (path: readonly string[]) =>
  path.length === 1
    ? path[0] === OLD_MEMORY_NAME
    : path.length === MEMORY_PATH.length &&
      path.every((name, index) => name === MEMORY_PATH[index]);

/** Special names (HOST, SELF, @agent, …) are the daemon's, not the agent's store. */
const isOwnName = (name: string) => /^[a-z]/.test(name);

const readStore = async (powers: StorePowers): Promise<KeptStore> => {
  const kept: KeptStore = { version: VERSION, values: {}, folders: {} };
  const names = (await E(powers).list()) as string[];
  for (const name of names.filter(isOwnName)) {
    const value = await E(powers).lookup(name);
    if (typeof value === 'string') {
      kept.values[name] = value;
      continue;
    }
    let inner: string[];
    try {
      inner = (await E(powers).list(name)) as string[];
    } catch {
      continue; // Not a folder.
    }
    const texts: Record<string, string> = {};
    for (const innerName of inner) {
      const innerValue = await E(powers).lookup([name, innerName]);
      if (typeof innerValue === 'string') texts[innerName] = innerValue;
    }
    if (Object.keys(texts).length > 0) kept.folders[name] = texts;
  }
  return kept;
};

/**
 * The memory as a new run should find it: HOST's inbox is new and empty, so
 * the greeting last sent is left out and the agent greets again.
 */
const withoutGreeting = (memory: string): string => {
  try {
    const parsed = JSON.parse(memory) as Record<string, unknown>;
    if (parsed === null || typeof parsed !== 'object' || !('greeting' in parsed)) return memory;
    const { greeting: _greeting, ...rest } = parsed;
    return JSON.stringify(rest);
  } catch {
    return memory;
  }
};

export const makeKeptStore = (folder: string) => {
  const path = join(folder, FILE);
  let saving: Promise<void> = Promise.resolve();

  /** Puts what was kept into the guest's store; returns how many values (0 when nothing was kept). */
  const restore = async (powers: StorePowers): Promise<number> => {
    if (!existsSync(path)) return 0;
    const kept = JSON.parse(readFileSync(path, 'utf8')) as KeptStore;
    if (kept.version !== VERSION) throw Error(`${path} is not a store this version can read`);
    let count = 0;
    for (const [name, value] of Object.entries(kept.values)) {
      await E(powers).storeValue(isMemory([name]) ? withoutGreeting(value) : value, name);
      count += 1;
    }
    for (const [name, texts] of Object.entries(kept.folders)) {
      await E(powers).makeDirectory(name);
      for (const [innerName, value] of Object.entries(texts)) {
        const inner = [name, innerName];
        await E(powers).storeValue(isMemory(inner) ? withoutGreeting(value) : value, inner);
        count += 1;
      }
    }
    return count;
  };

  /** Writes what the guest holds now; saves run one after another. */
  const save = (powers: StorePowers): Promise<void> => {
    saving = saving.then(async () => {
      const kept = await readStore(powers);
      writeFileSync(`${path}.new`, JSON.stringify(kept), { mode: 0o600 });
      renameSync(`${path}.new`, path);
    });
    return saving;
  };

  return { path, restore, save };
};
harden(makeKeptStore);
