/**
 * `npm run conformance [-- --endo <built endo checkout> [--record <commit>]] [--show]`
 * (./cli-args.ts reads the line and holds the usage).
 *
 * Without --endo: the daemon double of both generations against what the real
 * daemons answered (conformance/recorded/). With --endo: a real daemon started
 * from that checkout in a temporary state folder against the double, and with
 * --record its answers are kept as the recording for its generation.
 * --show prints every step's outcome. Exits 1 on any difference not known.
 */
import '@endo/init';
import { runAgainstDouble } from './against-double.js';
import { runAgainstEndo } from './against-endo.js';
import { checkDouble, splitKnown } from './check-double.js';
import { CONFORMANCE_USAGE, parseConformanceArgs } from './cli-args.js';
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
  const args = parseConformanceArgs(process.argv.slice(2));
  if (args.kind === 'help') {
    print(CONFORMANCE_USAGE);
    return 0;
  }
  if (args.kind === 'wrong') {
    process.stderr.write(`conformance: ${args.reason}\n${CONFORMANCE_USAGE}\n`);
    return 2;
  }
  return args.endo === undefined
    ? againstRecordings(args.show)
    : againstEndo(args.endo, args.record, args.show);
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
