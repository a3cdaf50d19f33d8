/**
 * Readers for tool arguments: each returns the value in the form the guest
 * power wants, or throws an Error whose message tells the model what to fix.
 */
import { decodePassable } from '../encoding/decode-passable.js';

export type Args = Readonly<Record<string, unknown>>;

const missing = (name: string): Error => new Error(`${name} is required`);

export const readString = (args: Args, name: string): string => {
  const value = args[name];
  if (value === undefined || value === null || value === '') throw missing(name);
  if (typeof value === 'bigint' || typeof value === 'number') return String(value);
  if (typeof value !== 'string') throw new Error(`${name} must be a string`);
  return value;
};
harden(readString);

/** A pet-name path: an array of names, or one string ("a" or "a/b"). */
export const readPath = (args: Args, name: string): string[] => {
  const value = args[name];
  if (value === undefined || value === null || value === '') throw missing(name);
  const parts = typeof value === 'string' ? value.split('/') : value;
  if (!Array.isArray(parts) || parts.length === 0) {
    throw new Error(`${name} must be a pet name or an array of pet names`);
  }
  return parts.map((part, index) => {
    if (typeof part !== 'string' || part === '') {
      throw new Error(`${name}[${index}] must be a non-empty string`);
    }
    return part;
  });
};
harden(readPath);

/** A list of strings; a missing list means none. A lone string is a list of one. */
export const readStringList = (args: Args, name: string): string[] => {
  const value = args[name];
  if (value === undefined || value === null) return [];
  const list = typeof value === 'string' ? [value] : value;
  if (!Array.isArray(list)) throw new Error(`${name} must be an array of strings`);
  return list.map((item, index) => {
    if (typeof item === 'bigint' || typeof item === 'number') return String(item);
    if (typeof item !== 'string') throw new Error(`${name}[${index}] must be a string`);
    return item;
  });
};
harden(readStringList);

/** A path written as its parts: at least one, each a name. */
const isPathParts = (item: unknown): item is string[] =>
  Array.isArray(item) &&
  item.length > 0 &&
  item.every(part => typeof part === 'string' && part !== '');

/** Pet names or paths ("dir/name" or ["dir", "name"]) for attached values. */
export const readPathList = (args: Args, name: string): (string | string[])[] => {
  const value = args[name];
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) throw new Error(`${name} must be an array of pet names`);
  return value.map((item, index) => {
    if (typeof item === 'string' && item !== '') return item.includes('/') ? item.split('/') : item;
    if (isPathParts(item)) return item;
    throw new Error(`${name}[${index}] must be a pet name or a path`);
  });
};
harden(readPathList);

/** Message numbers are bigints in the daemon; models write 5, "5" or "+5". */
export const readMessageNumber = (args: Args, name = 'messageNumber'): bigint => {
  const value = args[name];
  if (value === undefined || value === null || value === '') throw missing(name);
  if (typeof value === 'bigint') {
    if (value < 0n) throw new Error(`${name} must not be negative`);
    return value;
  }
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) return BigInt(value);
  if (typeof value === 'string' && /^\+?#?\d+$/.test(value.trim())) {
    return BigInt(value.trim().replace(/^[+#]+/, ''));
  }
  throw new Error(
    `${name} must be a whole message number such as 5, got ${JSON.stringify(String(value))}`,
  );
};
harden(readMessageNumber);

export interface MessageParts {
  strings: string[];
  edgeNames?: string[];
  petNames?: (string | string[])[];
}

/**
 * The text parts of a message, checked against its attachments. `strings`
 * must hold one more part than there are attached values; missing trailing
 * parts are added as "" since that loses nothing, while extra parts are an
 * error the model can fix.
 */
export const checkMessageParts = (
  parts: MessageParts,
): { strings: string[]; edgeNames: string[]; petNames: (string | string[])[] } => {
  const { edgeNames = [], petNames = [] } = parts;
  if (parts.strings.length === 0) throw missing('strings');
  if (edgeNames.length !== petNames.length) {
    throw new Error(
      `edgeNames and petNames must have the same length (one edge name per attached value), got ${edgeNames.length} and ${petNames.length}`,
    );
  }
  if (parts.strings.length > edgeNames.length + 1) {
    throw new Error(
      `strings has ${parts.strings.length} parts but ${edgeNames.length} value(s) are attached: give one string before each value and one after the last`,
    );
  }
  const strings = [...parts.strings];
  while (strings.length < edgeNames.length + 1) strings.push('');
  return { strings, edgeNames, petNames };
};
harden(checkMessageParts);

/** A number (seconds and the like): a JSON number or numeric text. */
export const readNumber = (args: Args, name: string): number => {
  const value = args[name];
  if (value === undefined || value === null || value === '') throw missing(name);
  const number =
    typeof value === 'number' ? value : typeof value === 'string' ? Number(value) : Number.NaN;
  if (!Number.isFinite(number)) throw new Error(`${name} must be a number`);
  return number;
};
harden(readNumber);

/** A parameter that can hold a passable (the value of `store`): its strings are read SmallCaps-first. */
export const readPassable = (args: Args, name: string): unknown => {
  if (!(name in args)) throw missing(name);
  return decodePassable(args[name]);
};
harden(readPassable);
