/**
 * A guest's store as far as the memory uses it, for module tests: values and
 * directories by their paths (spelt with slashes), each value with an id as
 * a formula's, a move keeping it; the methods called, in order.
 */
import { Far } from '@endo/far';
import type { PowersRef } from '../../src/daemon/guest-powers.js';

const keyOf = (nameOrPath: string | readonly string[]) =>
  typeof nameOrPath === 'string' ? nameOrPath : nameOrPath.join('/');

export const makePathStore = (
  initial: Record<string, unknown> = {},
  options: { fail?: { lookup?: boolean; store?: boolean }; directories?: string[] } = {},
) => {
  const { fail = {}, directories: made = ['agent-state'] } = options;
  const values = new Map<string, unknown>();
  const ids = new Map<string, string>();
  const directories = new Set(made);
  const calls: string[] = [];
  let minted = 0;
  const put = (key: string, value: unknown, id = `id${(minted += 1)}`) => {
    values.set(key, value);
    ids.set(key, id);
  };
  const drop = (key: string) => {
    values.delete(key);
    ids.delete(key);
  };
  for (const [key, value] of Object.entries(initial)) put(key, value);
  const powers = Far('powers', {
    has: (...path: string[]) => values.has(keyOf(path)) || directories.has(keyOf(path)),
    identify: (...path: string[]) => ids.get(keyOf(path)),
    list: (...path: string[]) => {
      const key = keyOf(path);
      if (!directories.has(key)) throw Error(`Unknown pet name: ${key}`);
      return [...values.keys()].filter(name => name.startsWith(`${key}/`));
    },
    lookup(nameOrPath: string | string[]) {
      if (fail.lookup === true) throw Error('store unreachable');
      return values.get(keyOf(nameOrPath));
    },
    storeValue(value: unknown, nameOrPath: string | string[]) {
      calls.push(`storeValue ${keyOf(nameOrPath)}`);
      if (fail.store === true) throw Error('disk full');
      put(keyOf(nameOrPath), value);
    },
    makeDirectory: (nameOrPath: string | string[]) => {
      calls.push(`makeDirectory ${keyOf(nameOrPath)}`);
      directories.add(keyOf(nameOrPath));
    },
    move: (from: string[], to: string[]) => {
      calls.push(`move ${keyOf(from)} ${keyOf(to)}`);
      put(keyOf(to), values.get(keyOf(from)), ids.get(keyOf(from)));
      drop(keyOf(from));
    },
    remove: (...path: string[]) => {
      calls.push(`remove ${keyOf(path)}`);
      drop(keyOf(path));
    },
  });
  return { powers: powers as unknown as PowersRef, values, ids, directories, calls };
};
harden(makePathStore);
