/**
 * `npm run conformance [-- --endo <built endo checkout> [--record <commit>]] [--show]`
 *
 * Without --endo: the daemon double of both generations against what the real
 * daemons answered (conformance/recorded/). With --endo: a real daemon started
 * from that checkout in a temporary state folder against the double, and with
 * --record its answers are kept as the recording for its generation.
 * --show prints every step's outcome. Exits 1 on any difference not known.
 */
import '@endo/init';
import { parseArgs } from 'node:util';
import { runAgainstDouble } from './against-double.js';
import { runAgainstEndo } from './against-endo.js';
import { checkDouble, splitKnown } from './check-double.js';
import { compareOutcomes } from './compare.js';
import type { Outcome } from './outcome.js';
import { writeRecording } from './recorded.js';
import { printComparison } from './report.js';

const print = (line: string) => process.stdout.write(`${line}\n`);

const showAll = (label: string, outcomes: readonly Outcome[]) => {
  print(`${label}: ${outcomes.length} steps`);
  for (const o of outcomes)
    print(`  ${o.step}: ${o.ok ? 'ok' : 'error'} ${JSON.stringify(o.value)}`);
};

const againstRecordings = async (show: boolean) => {
  let unexpected = 0;
  for (const generation of ['f0a46042a', 'newest'] as const) {
    const check = await checkDouble(generation);
    if (show) showAll(`double (${generation})`, check.outcomes);
    const title = `double (${generation}) vs endo ${check.commit} as recorded, ${check.steps} steps`;
    printComparison(print, title, check);
    unexpected += check.unexpected.length + check.gone.length;
  }
  return unexpected === 0 ? 0 : 1;
};

const againstEndo = async (checkout: string, record: string | undefined, show: boolean) => {
  const { generation, outcomes: real } = await runAgainstEndo(checkout);
  if (record !== undefined)
    print(`recorded in ${writeRecording({ commit: record, generation, outcomes: real })}`);
  const double = await runAgainstDouble(generation);
  if (show) showAll(`endo at ${checkout}`, real);
  const { steps, differences } = compareOutcomes(double, real);
  const parts = splitKnown(generation, differences);
  printComparison(print, `double (${generation}) vs endo at ${checkout}, ${steps} steps`, parts);
  return parts.unexpected.length + parts.gone.length === 0 ? 0 : 1;
};

const main = async () => {
  const { values } = parseArgs({
    options: {
      endo: { type: 'string' },
      record: { type: 'string' },
      show: { type: 'boolean', default: false },
    },
  });
  return values.endo === undefined
    ? againstRecordings(values.show)
    : againstEndo(values.endo, values.record, values.show);
};

main().then(
  code => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`conformance: ${String(error)}\n${(error as Error).stack ?? ''}\n`);
    process.exitCode = 2;
  },
);
