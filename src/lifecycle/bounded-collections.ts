/**
 * A set and a map that keep at most `limit` entries, forgetting the oldest
 * first: for what the agent remembers per message or per sender over a run
 * of any length (a long run must not grow without bound).
 */
export interface BoundedSet<T> {
  add(value: T): void;
  /** Removes the value; true when it was there. */
  delete(value: T): boolean;
  has(value: T): boolean;
  readonly size: number;
}

export const makeBoundedSet = <T>(limit: number): BoundedSet<T> => {
  const values = new Set<T>();
  return {
    add(value) {
      values.delete(value);
      values.add(value);
      while (values.size > limit) values.delete(values.values().next().value as T);
    },
    delete: value => values.delete(value),
    has: value => values.has(value),
    get size() {
      return values.size;
    },
  };
};
harden(makeBoundedSet);

export interface BoundedMap<K, V> {
  get(key: K): V | undefined;
  set(key: K, value: V): void;
  delete(key: K): boolean;
  readonly size: number;
}

/** Least recently used first out: a `get` counts as a use. */
export const makeBoundedMap = <K, V>(limit: number): BoundedMap<K, V> => {
  const entries = new Map<K, V>();
  return {
    get(key) {
      if (!entries.has(key)) return undefined;
      const value = entries.get(key) as V;
      entries.delete(key);
      entries.set(key, value);
      return value;
    },
    set(key, value) {
      entries.delete(key);
      entries.set(key, value);
      while (entries.size > limit) entries.delete(entries.keys().next().value as K);
    },
    delete: key => entries.delete(key),
    get size() {
      return entries.size;
    },
  };
};
harden(makeBoundedMap);
