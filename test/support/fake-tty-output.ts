/**
 * A terminal's output stream for a screen under test: `columns` (and `rows`) wide, every write
 * kept in order, no listeners (a resize never comes).
 */
export const fakeTtyOutput = (columns: number, rows?: number) => {
  const writes: string[] = [];
  const out = {
    columns,
    rows,
    write: (text: string) => void writes.push(text),
    on: () => {},
    off: () => {},
  } as unknown as NodeJS.WriteStream;
  return { out, writes, written: () => writes.join('') };
};
