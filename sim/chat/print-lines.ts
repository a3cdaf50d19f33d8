/**
 * What `npm start` and `npm run model-double` print outside the chat's screen (the usage, a
 * refusal at start, the model double's banner): on a terminal, wrapped at words to its width by
 * the chat's own wrapper (./wrap-words.ts), so the terminal never cuts a word across two rows
 * (README: "on a terminal what the simulator writes is wrapped at words to its width"); piped,
 * as it is.
 */
import { wrapLines } from './wrap-words.js';

/** Where the lines go: a terminal says it is one, and its width. */
export interface LineSink {
  write: (text: string) => unknown;
  isTTY?: boolean | undefined;
  columns?: number | undefined;
}

/** Writes `text` and a newline to `out`, wrapped at words when `out` is a terminal that says its width. */
export const printLines = (out: LineSink, text: string): void => {
  // One column spare, as the screen keeps (./screen.ts): a row that fills the last column leaves
  // some terminals' cursor pending there, and the newline after it would show as an empty row.
  const width =
    out.isTTY === true && out.columns !== undefined && out.columns > 1 ? out.columns - 1 : 0;
  out.write(`${width > 0 ? wrapLines(text, width) : text}\n`);
};
harden(printLines);
