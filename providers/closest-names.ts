/**
 * The names nearest to one that was not found, for errors that say what would
 * have been right ("LAL_HOTS: did you mean LAL_HOST?"). Distance is the
 * optimal string alignment distance (a swap of two neighbours counts once),
 * compared without case.
 */

const editDistance = (a: string, b: string): number => {
  const rows = a.length + 1;
  const columns = b.length + 1;
  const table: number[][] = Array.from({ length: rows }, (_, i) =>
    Array.from({ length: columns }, (__, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i < rows; i += 1) {
    for (let j = 1; j < columns; j += 1) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(
        table[i - 1]![j]! + 1,
        table[i]![j - 1]! + 1,
        table[i - 1]![j - 1]! + cost,
      );
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        best = Math.min(best, table[i - 2]![j - 2]! + 1);
      table[i]![j] = best;
    }
  }
  return table[a.length]![b.length]!;
};

/**
 * Up to `max` candidates close to `wanted`, nearest first (ties keep the
 * candidates' order): within a third of the longer name's length, or
 * containing it, or contained in it.
 */
export const closestNames = (wanted: string, candidates: Iterable<string>, max = 3): string[] => {
  const target = wanted.toLowerCase();
  const scored: { name: string; distance: number; order: number }[] = [];
  let order = 0;
  for (const name of new Set(candidates)) {
    const lower = name.toLowerCase();
    const distance = editDistance(target, lower);
    const near = distance <= Math.max(1, Math.floor(Math.max(target.length, lower.length) / 3));
    const overlapping =
      target.length >= 3 && lower.length >= 3 && (lower.includes(target) || target.includes(lower));
    if (name !== wanted && (near || overlapping)) scored.push({ name, distance, order });
    order += 1;
  }
  scored.sort((x, y) => x.distance - y.distance || x.order - y.order);
  return scored.slice(0, max).map(entry => entry.name);
};
harden(closestNames);
