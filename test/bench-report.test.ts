// The bench's printed table fits a terminal and a CI log: at most 120 columns, nothing cut.
import { describe, expect, it } from 'vitest';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { formatTable, MAX_COLUMNS, stepLine, wrapText } from '../bench/report.js';
import { readRepoFile, repoRoot } from './support/repo-files.js';
import type { FigureResult } from '../bench/figure.js';

const machine = {
  date: '2026-11-25T00:00:00.000Z',
  node: 'v20.20.2',
  cpuModel: 'A processor with a long marketing name @ 2.40GHz',
  cores: 2,
  memoryGiB: 24,
  os: 'linux 6.1',
};

const longFigure: FigureResult = {
  id: 'long',
  title:
    '6. Prompt economy: the first request in real Qwen3 tokens and the share of each request a prefix cache reuses',
  rows: [
    {
      label: 'bytes reusable by a prefix cache over 200 exchanges (worse of the two layouts, lal)',
      measured: '90.7 % (the digest in its own message, turns folded in blocks of twelve)',
      target: '≥ 90 % (an Anthropic cache_control breakpoint after the tools)',
      verdict: 'pass',
    },
    { label: 'short', measured: '1', target: '', verdict: 'MISSED' },
  ],
  data: {},
  notes: [
    'measured with the real tokenizer in a child process; every figure is the worse of the two daemon generations, so a change to either shows',
  ],
};

describe('bench table', () => {
  it('keeps every line within 120 columns and loses no word', () => {
    const table = formatTable([longFigure], machine as never, 1234);
    const lines = table.split('\n');
    for (const line of lines) expect([...line].length).toBeLessThanOrEqual(MAX_COLUMNS);
    const words = table.split(/[\s|]+/);
    for (const text of [
      longFigure.title,
      ...longFigure.rows.flatMap(row => [row.label, row.measured, row.target]),
    ])
      for (const word of text.split(' ').filter(Boolean)) expect(words).toContain(word);
    expect(words).toContain('MISSED');
  });

  it('wraps at spaces, and cuts a word only when it is longer than the column', () => {
    expect(wrapText('aaa bbb ccc', 7)).toEqual(['aaa bbb', 'ccc']);
    expect(wrapText('abcdefghij', 4)).toEqual(['abcd', 'efgh', 'ij']);
    expect(wrapText('', 5)).toEqual(['']);
    expect(wrapText('    indented words here', 12)).toEqual([
      '    indented',
      '    words',
      '    here',
    ]);
  });
});

describe("the bench's progress lines", () => {
  it("name the figures they measure by the table's numbers, and fit 120 columns", () => {
    expect(stepLine([2, 5], 'a conversation')).toBe('figures 2, 5 of 15: a conversation');
    expect(stepLine([7], 'MCP')).toBe('figure 7 of 15: MCP');
    const run = readRepoFile('bench/figures-run.ts');
    // No count of its own ("2/6") that the table does not use.
    expect(run).not.toMatch(/progress\(\s*['`]\d\/\d/);
    const steps = [...run.matchAll(/stepLine\(\[([\d, ]+)\], ['"`]([^'"`]+)['"`]\)/g)];
    const measured = steps.flatMap(([, numbers]) => numbers!.split(', ').map(Number));
    expect([...new Set(measured)].sort((a, b) => a - b)).toEqual([
      1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15,
    ]);
    for (const [, numbers, what] of steps) {
      const line = `bench: ${stepLine(numbers!.split(', ').map(Number), what!.replace(/\$\{\w+\}/, '1000'))}`;
      expect([...line].length, line).toBeLessThanOrEqual(MAX_COLUMNS);
    }
    // Each number is the one its figure's title starts with.
    const figureSources = readdirSync(join(repoRoot, 'bench'))
      .filter(name => /^figure-.*\.ts$/.test(name))
      .map(name => readRepoFile(join('bench', name)));
    for (const number of measured)
      expect(
        figureSources.some(text => new RegExp(`title:\\s*['"\`]${number}\\. `).test(text)),
        `figure ${number}`,
      ).toBe(true);
  });
});
