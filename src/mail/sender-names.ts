/**
 * Names a formula id for the model by the guest's pet name for it
 * (`reverseIdentify`), cached per id, falling back to a short form of the id
 * rather than 257 characters of hex.
 */
import { E } from '@endo/far';
import { makeBoundedMap } from '../bounded-collections.js';

export type NameOf = (id: unknown) => Promise<string>;

const shortId = (id: string): string => (id.length > 16 ? `id ${id.slice(0, 8)}…` : id);

const SENDERS_REMEMBERED = 512;

/** How this daemon spells its special names and its message ids (daemon/daemon-adapter.ts); f0a46042a's by default. */
export interface SenderNaming {
  names: { host: string; self: string };
  idOf: (idOrLocator: unknown) => string | undefined;
}

export const makeSenderNames = (powers: unknown, naming?: SenderNaming): NameOf => {
  const host = naming?.names.host ?? 'HOST';
  const self = naming?.names.self ?? 'SELF';
  // Senders come and go over a long run: keep the most recently named ones.
  const cache = makeBoundedMap<string, Promise<string>>(SENDERS_REMEMBERED);
  const lookUp = async (id: string): Promise<string> => {
    try {
      const names: unknown = await E(
        powers as { reverseIdentify(id: string): string[] },
      ).reverseIdentify(id);
      const list = Array.isArray(names)
        ? names.filter((name): name is string => typeof name === 'string')
        : [];
      // A person's own pet name reads better than a special name, except for HOST.
      const preferred =
        list.find(name => name === host) ?? list.find(name => name !== self) ?? list[0];
      // No name yet: ask again next time, the host may introduce one.
      if (preferred === undefined) cache.delete(id);
      return preferred ?? shortId(id);
    } catch {
      cache.delete(id);
      return shortId(id);
    }
  };
  return given => {
    // The newest daemon writes senders as endo:// locators; reverseIdentify takes the formula id.
    const id = naming === undefined ? given : (naming.idOf(given) ?? given);
    if (typeof id !== 'string' || id === '') return Promise.resolve('unknown sender');
    let named = cache.get(id);
    if (named === undefined) {
      named = lookUp(id);
      cache.set(id, named);
    }
    return named;
  };
};
