/** The text a person wrote in a package message: its strings, with `@edgeName` between them. */
export const packageText = (strings: readonly string[], names: readonly string[]): string =>
  strings.map((part, index) => (index < names.length ? `${part}@${names[index]}` : part)).join('');
harden(packageText);
