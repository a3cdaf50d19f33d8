/**
 * Okapi BM25, fed one document at a time so a search over a long history
 * holds only the documents that match (their term counts and a reference),
 * never the whole history: the collection's size and average length, which
 * the scores need, are known once every document has been seen.
 */

// The usual constants: term frequency saturates around k1, b weighs length.
const K1 = 1.2;
const B = 0.75;

interface Ranked<Ref> {
  ref: Ref;
  score: number;
}

export interface Bm25<Ref> {
  /** Counts one document (its words, in order) toward the collection, and keeps it if it matches. */
  see(words: readonly string[], ref: Ref): void;
  /** Documents seen so far. */
  documents(): number;
  /** The `limit` best matches, best first (ties: the newer first). */
  top(limit: number): Ranked<Ref>[];
}

export const makeBm25 = <Ref>(
  queryTerms: readonly string[],
  /** Documents come newest first (a search that may stop early reads the newest first); else oldest first. */
  seenNewestFirst = false,
): Bm25<Ref> => {
  const newerFirst = seenNewestFirst ? 1 : -1;
  const termIndex = new Map(queryTerms.map((term, index) => [term, index]));
  const documentFrequency = queryTerms.map(() => 0);
  // Counts kept by term only where found: a long query must not cost a slot per term per match.
  const matches: { ref: Ref; counts: Map<number, number>; length: number; order: number }[] = [];
  let documents = 0;
  let totalLength = 0;
  return {
    see(words, ref) {
      documents += 1;
      totalLength += words.length;
      let counts: Map<number, number> | undefined;
      for (const word of words) {
        const index = termIndex.get(word);
        if (index === undefined) continue;
        counts ??= new Map();
        counts.set(index, (counts.get(index) ?? 0) + 1);
      }
      if (counts === undefined) return;
      for (const index of counts.keys()) documentFrequency[index]! += 1;
      matches.push({ ref, counts, length: words.length, order: documents });
    },
    documents: () => documents,
    top(limit) {
      const averageLength = totalLength / Math.max(1, documents);
      const idf = documentFrequency.map(frequency =>
        Math.log(1 + (documents - frequency + 0.5) / (frequency + 0.5)),
      );
      return matches
        .map(match => ({
          ref: match.ref,
          order: match.order,
          score: [...match.counts].reduce((sum, [index, count]) => {
            const norm = K1 * (1 - B + (B * match.length) / Math.max(1, averageLength));
            return sum + (idf[index]! * count * (K1 + 1)) / (count + norm);
          }, 0),
        }))
        .sort((a, b) => b.score - a.score || newerFirst * (a.order - b.order))
        .slice(0, limit)
        .map(({ ref, score }) => ({ ref, score }));
    },
  };
};
harden(makeBm25);
