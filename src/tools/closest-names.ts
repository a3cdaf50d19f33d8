/**
 * The names nearest to one that was asked for and does not exist, for
 * errors that say what would have been right: names that hold it or that
 * it holds first (`math` for `math-tool`), then by edit distance, ignoring
 * case.
 */

/** Levenshtein distance, with one row of memory. */
const distance = (a: string, b: string): number => {
  let row = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i += 1) {
    const next = [i];
    for (let j = 1; j <= b.length; j += 1) {
      const swap = a[i - 1] === b[j - 1] ? 0 : 1;
      next.push(Math.min(row[j]! + 1, next[j - 1]! + 1, row[j - 1]! + swap));
    }
    row = next;
  }
  return row[b.length]!;
};

const score = (wanted: string, name: string): number => {
  const [w, n] = [wanted.toLowerCase(), name.toLowerCase()];
  const base = distance(w, n);
  // One holding the other is nearer than any spelling distance says.
  return n.includes(w) || w.includes(n) ? base / 100 : base;
};

/** The `count` names nearest to `wanted`, nearest first (ties in their given order). */
export const closestNames = (wanted: string, names: readonly string[], count = 3): string[] =>
  [...new Set(names)]
    .map((name, index) => ({ name, index, score: score(wanted, name) }))
    .sort((a, b) => a.score - b.score || a.index - b.index)
    .slice(0, count)
    .map(({ name }) => name);

/** Only the names near enough to be a slip (holding it, or a few letters off): none for a name unlike any. */
export const nearNames = (wanted: string, names: readonly string[], count = 3): string[] =>
  closestNames(wanted, names, count).filter(
    name => score(wanted, name) <= Math.max(2, Math.ceil(wanted.length / 3)),
  );

export const quoteList = (names: readonly string[]): string =>
  names.map(name => `"${name}"`).join(', ');
