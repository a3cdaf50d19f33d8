/**
 * Words as the history search compares them: letters and digits in runs,
 * lower case, accents dropped, a plural "s" taken off, so "Codes" finds
 * "code" and "4711-XQ" is "4711" and "xq". A question's common words
 * ("what", "is", "the") are left out of a query that has others: they
 * match nearly every exchange and would only add noise to the ranking.
 */

const WORD = /[\p{L}\p{N}]+/gu;

const stem = (word: string): string =>
  word.length > 3 && word.endsWith('s') && !word.endsWith('ss') ? word.slice(0, -1) : word;

/** The words of a text, in order, repeats kept (the ranking counts them). */
export const wordsOf = (text: string): string[] => {
  const words: string[] = [];
  for (const [match] of text
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .matchAll(WORD)) {
    // A single letter ("s" of "it's", "a") says nothing; a single digit may be a door number.
    if (match.length === 1 && !/\d/.test(match)) continue;
    words.push(stem(match));
  }
  return words;
};
harden(wordsOf);

const COMMON = new Set(
  (
    'what whats which who whom whose when where why how is are was were be been am do does did ' +
    'the an and or of to in on at for by with from about as that this these those it its ' +
    'my me mine your yours you we our us he she they them his her their there here ' +
    'can could would should will shall may might please tell say said again remember ' +
    'know knew give gave told ask asked any some all not no yes'
  ).split(' '),
);

/** A query's distinct words, its common ones left out unless nothing else is left. */
export const queryWords = (query: string): string[] => {
  const all = [...new Set(wordsOf(query))];
  const telling = all.filter(word => !COMMON.has(word));
  return telling.length > 0 ? telling : all;
};
harden(queryWords);
