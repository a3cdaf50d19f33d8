/**
 * How wide text is on a terminal, in the columns it takes there: a CJK letter or an emoji takes
 * two, an accent combined with its letter none, colour codes none. The one measure of everything
 * the chat fits to the terminal's width (./wrap-words.ts, ./screen.ts's status row, /inbox's rows);
 * a count of UTF-16 code units ran a row of 日本語 past the terminal's edge, which carried its last
 * letters onto a row of their own (issue 45, trial 12). The width tables are string-width's.
 */
import stringWidth from 'string-width';

/** The columns `text` takes on a terminal. */
export const columnsOf = (text: string): number => stringWidth(text);
harden(columnsOf);

/**
 * `text` with each tab as the spaces a terminal moves over for it, to the next multiple of 8 on
 * its line: measured, a tab counted no column, so a line of them ran past the terminal's edge and
 * a word after one was broken across two rows (issue 45, trial 14).
 */
export const expandTabs = (text: string): string =>
  text
    .split('\n')
    .map(line =>
      line
        .split('\t')
        .reduce((out, piece) => `${out}${' '.repeat(8 - (columnsOf(out) % 8))}${piece}`),
    )
    .join('\n');
harden(expandTabs);

const letters = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

/**
 * The most of `text` that takes `columns` at most, from its start (or its `end`), cut between two
 * letters as a reader sees them (never through an emoji's two code units or a letter's accent).
 */
export const fitColumns = (
  text: string,
  columns: number,
  from: 'start' | 'end' = 'start',
): string => {
  if (columnsOf(text) <= columns) return text;
  const parts = [...letters.segment(text)].map(part => part.segment);
  if (from === 'end') parts.reverse();
  const kept: string[] = [];
  let used = 0;
  for (const part of parts) {
    used += columnsOf(part);
    if (used > columns) break;
    kept.push(part);
  }
  if (from === 'end') kept.reverse();
  return kept.join('');
};
harden(fitColumns);
