/**
 * A pet store: names → formula ids, with the reverse index and a change feed.
 * Survives a simulated restart (it is the daemon's on-disk state).
 */
import { assertFormulaId, parseFormulaId } from './formula-id.js';
import { assertPetName } from './pet-name.js';
import { makeTopic } from './topic.js';
import type { FormulaId, NameChange } from './types.js';
import type { Subscription } from './topic.js';

export interface PetStore {
  has(name: string): boolean;
  identifyLocal(name: string): FormulaId | undefined;
  list(): readonly string[];
  reverseIdentify(id: FormulaId): readonly string[];
  write(name: string, id: FormulaId): void;
  remove(name: string): void;
  rename(fromName: string, toName: string): void;
  followNameChanges(): Subscription<NameChange>;
  /** How many listings of followNameChanges failed on a name removed while they were read. */
  listingFailures(): number;
  /**
   * How many name-change messages its followers were sent so far: each change once to each
   * follower (an overwritten name is two, its removal then its addition, as both daemons'
   * pet-store.js publish it); a listing's first names are not changes and are not counted.
   */
  changesSent(): number;
  /** Called with the id a name stopped pointing at (for collection). */
  onUnbind(listener: (id: FormulaId) => void): void;
}

export const makePetStore = (
  assertValidName: (name: unknown) => string = assertPetName,
): PetStore => {
  const idForName = new Map<string, FormulaId>();
  const namesForId = new Map<FormulaId, Set<string>>();
  const changes = makeTopic<NameChange>();
  const unbindListeners: ((id: FormulaId) => void)[] = [];
  let failedListings = 0;
  let sent = 0;
  let sortedNames: readonly string[] | undefined;

  const link = (name: string, id: FormulaId) => {
    idForName.set(name, id);
    let names = namesForId.get(id);
    if (!names) {
      names = new Set();
      namesForId.set(id, names);
    }
    names.add(name);
    sortedNames = undefined;
    sent += changes.publish(harden({ add: name, value: parseFormulaId(id) }));
  };

  const unlink = (name: string, id: FormulaId) => {
    idForName.delete(name);
    const names = namesForId.get(id);
    names?.delete(name);
    if (names && names.size === 0) namesForId.delete(id);
    sortedNames = undefined;
    sent += changes.publish(harden({ remove: name }));
    for (const listener of unbindListeners) listener(id);
  };

  const mustIdentify = (name: string): FormulaId => {
    const id = idForName.get(name);
    if (id === undefined)
      throw Error(`Formula does not exist for pet name ${JSON.stringify(name)}`);
    return id;
  };

  const list = (): readonly string[] => {
    sortedNames ??= harden([...idForName.keys()].sort());
    return sortedNames;
  };

  return {
    has: name => idForName.has(assertValidName(name)),
    identifyLocal: name => idForName.get(assertValidName(name)),
    list,
    reverseIdentify: id => harden([...(namesForId.get(assertFormulaId(id)) ?? [])]),
    write: (name, id) => {
      assertValidName(name);
      assertFormulaId(id);
      const old = idForName.get(name);
      if (old === id) return;
      if (old !== undefined) unlink(name, old);
      link(name, id);
    },
    remove: name => {
      assertValidName(name);
      unlink(name, mustIdentify(name));
    },
    rename: (fromName, toName) => {
      assertValidName(fromName);
      assertValidName(toName);
      if (fromName === toName) return;
      const id = mustIdentify(fromName);
      const overwritten = idForName.get(toName);
      if (overwritten !== undefined) unlink(toName, overwritten);
      // Bind the new name before dropping the old so the value never looks unnamed.
      link(toName, id);
      unlink(fromName, id);
    },
    // As both daemons' pet-store.js: the names are listed at once, but each one's id is read as
    // it is yielded, so a name removed meanwhile fails the listing (parseId(undefined)).
    followNameChanges: () => {
      const subscription = changes.subscribe();
      let listing = [...list()];
      return harden({
        next: () => {
          const name = listing.shift();
          if (name === undefined) return subscription.next();
          const id = idForName.get(name);
          if (id === undefined) {
            listing = [];
            failedListings += 1;
            subscription.end();
            return Promise.reject(Error('Invalid formula identifier "[undefined]"'));
          }
          return Promise.resolve(
            harden({ done: false, value: harden({ add: name, value: parseFormulaId(id) }) }),
          );
        },
        end: () => {
          listing = [];
          subscription.end();
        },
        fail: (error: Error) => {
          listing = [];
          subscription.fail(error);
        },
      });
    },
    listingFailures: () => failedListings,
    changesSent: () => sent,
    onUnbind: listener => {
      unbindListeners.push(listener);
    },
  };
};
harden(makePetStore);

/**
 * The agent's view of its store: special names (AGENT, HOST, MAIL, SELF…) come
 * first, are read-only, and anything else must be a valid pet name.
 */
export const withSpecialNames = (
  store: PetStore,
  specialNames: Readonly<Record<string, FormulaId>>,
  // In the newest daemon an upper-case name such as HOST is an ordinary (unbound) name.
  isPlainName: (name: string) => boolean = name => /^[a-z0-9][a-z0-9-]{0,127}$/.test(name),
): PetStore => {
  const specialKeys = harden(Object.keys(specialNames).sort());
  const isSpecial = (name: string) => Object.hasOwn(specialNames, name);
  return {
    ...store,
    has: name =>
      isSpecial(name) ||
      (/^[a-z0-9][a-z0-9-]{0,127}$/.test(name)
        ? store.has(name)
        : isPlainName(name)
          ? false
          : store.has(name)),
    identifyLocal: name => {
      if (isSpecial(name)) return specialNames[name];
      if (typeof name !== 'string' || !isPlainName(name)) {
        throw Error(
          `Invalid pet name ${JSON.stringify(name)} and not one of ${Object.keys(specialNames).join(', ')}`,
        );
      }
      // The double stores lower-case pet names only; another plain name is simply unbound.
      return /^[a-z0-9][a-z0-9-]{0,127}$/.test(name) ? store.identifyLocal(name) : undefined;
    },
    list: () => harden([...specialKeys, ...store.list()]),
    reverseIdentify: id => {
      const names = [...store.reverseIdentify(id)];
      for (const [name, specialId] of Object.entries(specialNames))
        if (specialId === id) names.push(name);
      return harden(names);
    },
    followNameChanges: () => {
      const subscription = store.followNameChanges();
      const specials = specialKeys.map(name =>
        harden({ add: name, value: parseFormulaId(specialNames[name] as FormulaId) }),
      );
      let pending = [...specials];
      return harden({
        next: () => {
          const special = pending.shift();
          if (special)
            return Promise.resolve(
              harden({ done: false, value: special }) as IteratorResult<NameChange, undefined>,
            );
          return subscription.next();
        },
        end: () => {
          pending = [];
          subscription.end();
        },
        fail: (error: Error) => {
          pending = [];
          subscription.fail(error);
        },
      });
    },
  };
};
harden(withSpecialNames);
