/**
 * Reads a target from several ping-timer runs (issue 46's "≤ 1.05× the floor,
 * the median of at least five interleaved runs"; docs/benchmark.md): each
 * run's ratio of one guest's median to another's, for wall time and for CPU
 * a ping, then their median, range and spread beside the target, and a
 * verdict that says when the runs spread too widely to read one.
 */
import { Fail, makeError, q, X } from '@endo/errors';
import { median } from '../stats.js';
import type { RunRecord } from './speed-record.js';

/** The target: a ping at most 1.05× its floor, read from at least five runs. */
const TARGET = 1.05;
const LEAST_RUNS = 5;

type Verdict = 'met' | 'not met' | 'not shown';

export interface TargetReading {
  ratios: number[];
  median: number;
  low: number;
  high: number;
  /** The highest run's ratio less the lowest's. */
  spread: number;
  verdict: Verdict;
  /** Why the verdict, in words for the table. */
  why: string;
}

/**
 * Every run at or under the target: met; every run over it: not met. Runs on both sides are
 * read by their median only when they spread no wider than the target's margin (its 5 %);
 * wider, the target is not shown either way. Fewer than five runs show nothing.
 */
export const readTarget = (ratios: readonly number[], target = TARGET): TargetReading => {
  const low = Math.min(...ratios);
  const high = Math.max(...ratios);
  const middle = median(ratios);
  const spread = high - low;
  const margin = target - 1;
  const reading = (verdict: Verdict, why: string): TargetReading =>
    harden({ ratios: [...ratios], median: middle, low, high, spread, verdict, why });
  if (ratios.length < LEAST_RUNS)
    return reading('not shown', `${ratios.length} runs, fewer than ${LEAST_RUNS}`);
  if (high <= target) return reading('met', 'every run at or under the target');
  if (low > target) return reading('not met', 'every run over the target');
  if (spread > margin)
    return reading(
      'not shown',
      `runs on both sides, spread ${spread.toFixed(2)} wider than the margin ${margin.toFixed(2)}`,
    );
  return middle <= target
    ? reading('met', 'the median, runs within the margin')
    : reading('not met', 'the median, runs within the margin');
};
harden(readTarget);

/** What a pair's ratio is taken of. */
const FIGURES = {
  wall: 'wall time, send → answer',
  cpuToAnswer: 'CPU, send → answer',
  cpuWhole: 'CPU, the whole ping',
} as const;
type Figure = keyof typeof FIGURES;

const figureOf = (run: RunRecord, guest: string, figure: Figure): number | undefined => {
  const found = run.guests.find(each => each.guest === guest);
  if (found === undefined) throw makeError(X`the run at ${q(run.at)} pinged no ${q(guest)}`);
  if (figure === 'wall') return found.wall.median;
  if (found.cpu === undefined) return undefined;
  return figure === 'cpuToAnswer' ? found.cpu.toAnswer.median : found.cpu.whole.median;
};

/**
 * Each run's `over ÷ under` of `figure`; runs that did not read the CPU, or read `under`'s as
 * 0 ms (a clock coarser than the ping), are left out of its figures.
 */
export const pairRatios = (
  runs: readonly RunRecord[],
  over: string,
  under: string,
  figure: Figure,
): number[] =>
  runs.flatMap(run => {
    const top = figureOf(run, over, figure);
    const bottom = figureOf(run, under, figure);
    return top === undefined || bottom === undefined || bottom === 0 ? [] : [top / bottom];
  });
harden(pairRatios);

const times = (value: number) => `${value.toFixed(2)}×`;

/** The table: for each pair and figure, the median of the runs' ratios, their range and spread, the verdict. */
export const summariseRuns = (
  runs: readonly RunRecord[],
  pairs: readonly (readonly [string, string])[],
): string[] => {
  runs.length > 0 || Fail`no runs to read`;
  const loads = runs.map(run => run.load);
  return [
    `${runs.length} runs, ${runs[0]!.at} to ${runs.at(-1)!.at}, load average ${Math.min(...loads).toFixed(1)}–${Math.max(...loads).toFixed(1)}; target ≤ ${times(TARGET)}, the median of at least ${LEAST_RUNS} runs`,
    ...pairs.flatMap(([over, under]) =>
      (Object.keys(FIGURES) as Figure[]).flatMap(figure => {
        const ratios = pairRatios(runs, over, under, figure);
        if (ratios.length === 0) return [];
        const read = readTarget(ratios);
        return [
          `  ${over} ÷ ${under}, ${FIGURES[figure]}: ${times(read.median)} (${times(read.low)}–${times(read.high)}, spread ${read.spread.toFixed(2)}; runs ${read.ratios.map(times).join(' ')}) → ${read.verdict} (${read.why})`,
        ];
      }),
    ),
  ];
};
harden(summariseRuns);
