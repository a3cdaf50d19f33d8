// Stryker (mutation testing) for `npm run mutation`: scripts/mutation.mjs runs it once per decision
// module, with `--mutate` and `--testFiles` set from its table, so this file holds only what every
// run shares. Stryker 9.x: 10.x does not run on Node 20. docs/mutation.md says how to read a run.
const report = process.env.LAL_MUTATION_REPORT ?? 'reports/mutation/mutation.json';

export default {
  testRunner: 'vitest',
  plugins: ['@stryker-mutator/vitest-runner'],
  vitest: { configFile: 'vitest.mutation.config.ts', related: false },
  // Each mutant runs only the tests that reached its code in the first (dry) run.
  coverageAnalysis: 'perTest',
  // Two cores are shared by everything on this machine.
  concurrency: Number(process.env.LAL_MUTATION_CONCURRENCY ?? 2),
  timeoutMS: 10_000,
  reporters: ['clear-text', 'json'],
  jsonReporter: { fileName: report },
  clearTextReporter: { allowColor: false, logTests: false, reportScoreTable: true },
  tempDirName: '.stryker-tmp',
  cleanTempDir: 'always',
  incrementalFile: process.env.LAL_MUTATION_INCREMENTAL ?? 'reports/mutation/incremental.json',
  thresholds: { high: 90, low: 85, break: null },
};
