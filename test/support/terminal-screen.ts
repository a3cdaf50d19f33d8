/**
 * What a person sees of `npm start` on a terminal: its output drawn by a terminal emulator
 * (@xterm/headless), row by row, scrolled-off rows too.
 */
import { Terminal } from '@xterm/headless';

export interface ScreenRow {
  text: string;
  /** The terminal wrapped the row before onto this one (the text ran past the last column). */
  wrapped: boolean;
}

/**
 * The screen's rows as drawn, `columns` wide; resized as the terminal was (`resizes`, in order):
 * the output that had come by then drawn at the old size, the rest at the new.
 */
export const screenRows = (
  output: string,
  columns: number,
  resizes: readonly { at: number; columns: number; rows: number }[] = [],
): Promise<ScreenRow[]> =>
  new Promise(resolve => {
    const terminal = new Terminal({
      cols: columns,
      rows: 30,
      scrollback: 1000,
      allowProposedApi: true,
    });
    // A write is drawn later, a resize at once: each resize waits for what came before it.
    const drawn = (text: string) => new Promise<void>(done => terminal.write(text, done));
    let from = 0;
    let chain = Promise.resolve();
    for (const { at, columns: cols, rows } of resizes) {
      const before = output.slice(from, at);
      chain = chain.then(() => drawn(before)).then(() => terminal.resize(cols, rows));
      from = at;
    }
    void chain
      .then(() => drawn(output.slice(from)))
      .then(() => {
        const buffer = terminal.buffer.active;
        const rows: ScreenRow[] = [];
        for (let row = 0; row < buffer.length; row += 1) {
          const line = buffer.getLine(row);
          if (line !== undefined)
            rows.push({ text: line.translateToString(true).trimEnd(), wrapped: line.isWrapped });
        }
        terminal.dispose();
        resolve(rows);
      });
  });

/** The screen's rows joined where the terminal wrapped them. */
export const screenLines = async (output: string, columns: number): Promise<string[]> => {
  const lines: string[] = [];
  for (const row of await screenRows(output, columns)) {
    if (row.wrapped && lines.length > 0) lines[lines.length - 1] += row.text;
    else lines.push(row.text);
  }
  return lines;
};
