/**
 * The daemon's naming rules: pet names are lowercase (`a-z0-9` then `-`), special
 * names uppercase, mail slots decimal; paths are non-empty arrays of names.
 */
const petNamePattern = /^[a-z0-9][a-z0-9-]{0,127}$/;
// Upper case at f0a46042a (HOST), `@` and lower case in the newest daemon (@host).
const specialNamePattern = /^(?:[A-Z][A-Z0-9-]{0,127}|@[a-z][a-z0-9-]{0,127})$/;
const mailSlotPattern = /^\d+$/;

/** Like the daemon's `q` from @endo/errors: JSON, and a bigint as `"[5n]"`. */
const quote = (value: unknown): string => {
  if (typeof value === 'bigint') return `"[${value}n]"`;
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
};
export { quote };
harden(quote);

const isPetName = (name: unknown): name is string =>
  typeof name === 'string' && petNamePattern.test(name);
export const isSpecialName = (name: unknown): name is string =>
  typeof name === 'string' && specialNamePattern.test(name);
harden(isSpecialName);
const isMailSlotName = (name: unknown): name is string =>
  typeof name === 'string' && mailSlotPattern.test(name);
export const isName = (name: unknown): name is string =>
  isPetName(name) || isSpecialName(name) || isMailSlotName(name);
harden(isName);

export const assertPetName = (name: unknown): string => {
  if (!isPetName(name)) throw Error(`Invalid pet name ${quote(name)}`);
  return name;
};
harden(assertPetName);

export const assertName = (name: unknown): string => {
  if (!isName(name)) throw Error(`Invalid name ${quote(name)}`);
  return name;
};
harden(assertName);

export const assertNames = (names: readonly unknown[]): readonly string[] => {
  for (const name of names) assertName(name);
  return names as readonly string[];
};
harden(assertNames);

export const assertNamePath = (path: unknown): readonly string[] => {
  if (!Array.isArray(path) || path.length < 1) throw Error('Invalid name path');
  return assertNames(path);
};
harden(assertNamePath);

/** A path whose last element is a pet name (where something can be written). */
export const assertPetNamePath = (
  path: unknown,
): { prefixPath: readonly string[]; petName: string } => {
  if (!Array.isArray(path) || path.length < 1) throw Error('Invalid name path');
  const prefixPath = assertNames(path.slice(0, -1));
  const petName = assertPetName(path[path.length - 1]);
  return { prefixPath, petName };
};
harden(assertPetNamePath);

export const namePathFrom = (nameOrPath: string | readonly string[]): readonly string[] =>
  assertNamePath(typeof nameOrPath === 'string' ? [nameOrPath] : nameOrPath);
harden(namePathFrom);
