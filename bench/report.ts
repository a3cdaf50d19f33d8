/** Prints the figures as one table, at most 120 columns wide, and writes them, with the machine, as JSON. */
import { mkdir, writeFile } from 'node:fs/promises';
import type { FigureResult } from './figure.js';
import type { MachineInfo } from './machine-info.js';

/** The widest the printed bench may be, so a terminal or a CI log shows it without wrapping. */
export const MAX_COLUMNS = 120;
harden(MAX_COLUMNS);
/** Each column's share: the label, what was measured, the target, the verdict. */
const COLUMN_WIDTHS = [40, 33, 32, 6] as const;
const SEPARATOR = ' | ';

const pad = (text: string, width: number) =>
  text + ' '.repeat(Math.max(0, width - [...text].length));

/** Breaks text into lines of at most `width` characters, at spaces where it can; a leading indent is kept on each. */
export const wrapText = (text: string, width: number): string[] => {
  const indent = /^ */.exec(text)![0];
  if (indent.length > 0 && indent.length < width)
    return wrapText(text.slice(indent.length), width - indent.length).map(line => indent + line);
  const lines: string[] = [];
  let rest = [...text];
  while (rest.length > width) {
    const head = rest.slice(0, width + 1);
    const space = head.lastIndexOf(' ');
    const cut = space > 0 ? space : width;
    lines.push(rest.slice(0, cut).join('').trimEnd());
    rest = rest.slice(cut);
    while (rest[0] === ' ') rest = rest.slice(1);
  }
  if (rest.length > 0 || lines.length === 0) lines.push(rest.join(''));
  return lines;
};
harden(wrapText);

/** One table row as printed lines: each cell wrapped in its column. */
const renderRow = (cells: readonly string[], widths: readonly number[]): string[] => {
  const wrapped = cells.map((cell, column) => wrapText(cell, widths[column]!));
  const height = Math.max(...wrapped.map(lines => lines.length));
  return Array.from({ length: height }, (_, line) =>
    wrapped
      .map((lines, column) => pad(lines[line] ?? '', widths[column]!))
      .join(SEPARATOR)
      .trimEnd(),
  );
};

export const formatTable = (
  figures: readonly FigureResult[],
  machine: MachineInfo,
  wallMs: number,
): string => {
  const header = ['Figure', 'Measured', 'Target / reference', 'Result'];
  const rule = COLUMN_WIDTHS.map(width => '-'.repeat(width)).join('-|-');
  const body: string[] = [];
  for (const figure of figures) {
    body.push(...wrapText(figure.title, MAX_COLUMNS));
    for (const row of figure.rows)
      body.push(
        ...renderRow(
          [`  ${row.label}`, row.measured, row.target, row.verdict === 'info' ? '' : row.verdict],
          COLUMN_WIDTHS,
        ),
      );
  }
  const notes = figures.flatMap(figure =>
    figure.notes.flatMap(note => wrapText(`- ${figure.title.split(' ')[0]} ${note}`, MAX_COLUMNS)),
  );
  return [
    ...wrapText(
      `lal-fae bench — ${machine.date} — node ${machine.node}, ${machine.cpuModel}, ${machine.cores} cores, ${machine.memoryGiB} GiB, ${machine.os}`,
      MAX_COLUMNS,
    ),
    '',
    ...renderRow(header, COLUMN_WIDTHS),
    rule,
    ...body,
    '',
    ...notes,
    `Total bench wall time: ${(wallMs / 1000).toFixed(1)} s. The bench reports; it never fails on a missed target.`,
  ].join('\n');
};
harden(formatTable);

/** How many figures the table has (bench/run.ts, 1 to 10). */
const FIGURE_COUNT = 15;

/** A progress line naming the figures it measures by the table's numbers: `figures 2, 5 of 8: …`. */
export const stepLine = (figures: readonly number[], what: string): string =>
  `figure${figures.length > 1 ? 's' : ''} ${figures.join(', ')} of ${FIGURE_COUNT}: ${what}`;
harden(stepLine);

export const writeResults = async (
  file: URL,
  figures: readonly FigureResult[],
  machine: MachineInfo,
  wallMs: number,
) => {
  await mkdir(new URL('.', file), { recursive: true });
  const results = {
    machine,
    wallMs,
    figures: Object.fromEntries(
      figures.map(figure => [
        figure.id,
        { title: figure.title, rows: figure.rows, data: figure.data, notes: figure.notes },
      ]),
    ),
  };
  await writeFile(file, `${JSON.stringify(results, null, 2)}\n`);
};
harden(writeResults);

/** A line on stderr while the bench runs (the table alone goes to stdout). */
export const progress = (line: string): void => {
  process.stderr.write(`bench: ${line}\n`);
};
harden(progress);
