/**
 * `npm run bench -- --help`: the usage, in a module of its own that imports nothing, so
 * scripts/start.mjs can print it on a fresh clone without building first (as sim/chat/usage.ts
 * and sim/model-server/usage.ts). The figures BENCH_ONLY may name live here, so the usage and
 * the settings (./bench-settings.ts) read one list.
 */

/** The figures BENCH_ONLY may name, with their numbers in the table. */
export const SINGLE_FIGURES = {
  modelCalls: 1,
  overhead: 3,
  discovery: 4,
  memory: 5,
  economy: 6,
  mcp: 7,
  recall: 8,
  threads: 9,
  'host-wait': 10,
  approvals: 11,
  schedules: 12,
  toolbox: 13,
  delegation: 14,
  realDaemon: 15,
  channels: 16,
};
harden(SINGLE_FIGURES);

/** The figures' names, three a row, under the setting's description. */
const figureRows = (): string[] => {
  const named = Object.entries(SINGLE_FIGURES).map(([name, figure]) => `${name} (${figure})`);
  const rows: string[] = [];
  for (let at = 0; at < named.length; at += 3)
    rows.push(`${' '.repeat(25)}${named.slice(at, at + 3).join(', ')}`);
  return rows.map((row, index) => (index < rows.length - 1 ? `${row},` : row));
};

export const BENCH_USAGE = [
  'Usage: npm run bench [-- --help]',
  '',
  'Measures what a turn of the agent costs, against a model server double on',
  '127.0.0.1 (no model needed): one table of figures beside their targets, also',
  'written to bench-results/latest.json. A whole run takes minutes',
  '(docs/benchmark.md). Its settings come from the environment:',
  '  BENCH_ONLY=<figure>    one figure alone, named (its number in the table):',
  ...figureRows(),
  '  BENCH_EXCHANGES=<n>    the long conversation (default 1000 exchanges, ≥ 200)',
  '  --help                 this text',
  '',
  'e.g. BENCH_ONLY=mcp npm run bench',
].join('\n');
harden(BENCH_USAGE);
