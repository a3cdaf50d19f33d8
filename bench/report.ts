/** Prints the figures as one table and writes them, with the machine, as JSON. */
import { mkdir, writeFile } from 'node:fs/promises';
import type { FigureResult } from './figure.js';
import type { MachineInfo } from './machine-info.js';

const pad = (text: string, width: number) =>
  text + ' '.repeat(Math.max(0, width - [...text].length));

export const formatTable = (
  figures: readonly FigureResult[],
  machine: MachineInfo,
  wallMs: number,
): string => {
  const header = ['Figure', 'Measured', 'Target / reference', 'Result'];
  const lines: string[][] = [];
  for (const figure of figures) {
    lines.push([figure.title, '', '', '']);
    for (const row of figure.rows)
      lines.push([
        `  ${row.label}`,
        row.measured,
        row.target,
        row.verdict === 'info' ? '' : row.verdict,
      ]);
  }
  const widths = header.map((title, column) =>
    Math.max([...title].length, ...lines.map(line => [...line[column]!].length)),
  );
  const render = (cells: string[]) =>
    cells
      .map((cell, column) => pad(cell, widths[column]!))
      .join(' | ')
      .trimEnd();
  const rule = widths.map(width => '-'.repeat(width)).join('-|-');
  const notes = figures.flatMap(figure =>
    figure.notes.map(note => `- ${figure.title.split(' ')[0]} ${note}`),
  );
  return [
    `lal-fae bench — ${machine.date} — node ${machine.node}, ${machine.cpuModel}, ${machine.cores} cores, ${machine.memoryGiB} GiB, ${machine.os}`,
    '',
    render(header),
    rule,
    ...lines.map(render),
    '',
    ...notes,
    `Total bench wall time: ${(wallMs / 1000).toFixed(1)} s. The bench reports; it never fails on a missed target.`,
  ].join('\n');
};

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
