/**
 * What `npm start` and `npm run model-double` print outside the chat's screen (the usage, a
 * refusal at start, the model double's banner): on a terminal, wrapped at words to its width by
 * the chat's own wrapper (./wrap-words.ts), so the terminal never cuts a word across two rows
 * (README: "on a terminal what the simulator writes is wrapped at words to its width"); piped,
 * as it is. A usage, laid out for 80 columns, is laid out again from its parts on a narrower
 * terminal (`printUsage`), not re-wrapped with its 80-column breaks.
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

/** The width the usages (./usage.ts, ../model-server/usage.ts) are laid out for, piped: 80 columns, one spare. */
const USAGE_WIDTH = 79;

/**
 * A usage laid out for 80 columns, taken back to its parts: the synopsis (`Usage: … -- [--a]`,
 * its later lines under its first `[`), each option with its description (its later lines under
 * the description's column), each paragraph (unindented lines, up to a blank line or a line
 * after one that ends a sentence). Each part is one line, its later lines' indent as `hang`.
 */
const usageParts = (text: string): { line: string; hang: number }[] => {
  const parts: { line: string; hang: number; prose: boolean }[] = [];
  for (const line of text.split('\n')) {
    const last = parts.at(-1);
    const indent = /^ */.exec(line)![0].length;
    const continues =
      last !== undefined &&
      line.trim() !== '' &&
      (last.prose
        ? indent === 0 && !(/[.)]$/.test(last.line) && /^[A-Z]/.test(line))
        : indent > 0 && indent === last.hang);
    if (continues) {
      last.line += ` ${line.trim()}`;
      continue;
    }
    const synopsis = /^Usage: .*? -- (?=\[)/.exec(line);
    const option = /^( +\S(?:.*?\S)? {2,})\S/.exec(line);
    const hang = synopsis?.[0].length ?? option?.[1]!.length ?? 0;
    parts.push({ line, hang, prose: indent === 0 && synopsis === null && line.trim() !== '' });
  }
  return parts.map(({ line, hang }) => ({ line, hang }));
};

/**
 * The synopsis at `width`: its flags (`[--persona lal|fae]`, each whole) after the command, the
 * rows after its first under the first flag, or further left when a flag would not fit there.
 */
const synopsisRows = (line: string, hang: number, width: number): string[] => {
  const flags = line.slice(hang).match(/\[[^\]]*\]|\S+/g) ?? [];
  const under = ' '.repeat(
    Math.max(0, Math.min(hang, width - Math.max(...flags.map(flag => flag.length)))),
  );
  const rows = [line.slice(0, hang).trimEnd()];
  for (const flag of flags) {
    const row = rows.at(-1)!;
    if (row.length + 1 + flag.length <= width) rows[rows.length - 1] = `${row} ${flag}`;
    else rows.push(`${under}${flag}`);
  }
  return rows;
};

/**
 * Writes a usage: on a terminal narrower than its layout, laid out again from its parts at the
 * terminal's width (each option's description wrapped in its column, each paragraph whole, the
 * synopsis's flags under its first); piped, or on a terminal as wide, as it is.
 */
export const printUsage = (out: LineSink, text: string): void => {
  const width = out.isTTY === true && out.columns !== undefined ? out.columns - 1 : USAGE_WIDTH;
  if (width >= USAGE_WIDTH || width < 20) {
    printLines(out, text);
    return;
  }
  const rows = usageParts(text).flatMap(({ line, hang }) =>
    line.startsWith('Usage: ')
      ? synopsisRows(line, hang, width)
      : wrapLines(line, width).split('\n'),
  );
  out.write(`${rows.join('\n')}\n`);
};
harden(printUsage);
