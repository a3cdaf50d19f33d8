/**
 * What one ping cost the daemon and its workers in CPU (docs/benchmark.md,
 * "CPU a ping, beside wall time"), from three readings of the process tree
 * (process-cpu.ts): before the send, when the answer is seen, and before the
 * next send (after the gap, so the guest's work after its answer, memory and
 * history, is counted). Each guest's pings are then summed up as medians.
 */
import { median, percentile } from '../stats.js';
import type { TreeCpu } from './process-cpu.js';

/** One ping, in ms of CPU. */
export interface PingCpu {
  /** Daemon and workers, from the send to the answer seen: the CPU on the ping's path. */
  toAnswer: number;
  /** The daemon's share of `toAnswer`. */
  daemonToAnswer: number;
  /** The guest's worker's share of `toAnswer`. */
  workerToAnswer: number;
  /** Daemon and workers, from the send to the next send. */
  whole: number;
  /** The daemon's share of `whole`. */
  daemon: number;
  /** The busiest worker's share of `whole`: the guest's own worker. */
  worker: number;
  /** Every other worker's share of `whole`. */
  otherWorkers: number;
  /** From the send to the answer, how long the tree's threads were ready but waited for a core. */
  waitToAnswer: number;
}

/** Each process's use from `from` to `to`, in ms; one that started meanwhile counts from nothing. */
const used = (from: TreeCpu, to: TreeCpu) => {
  const each = new Map<number, { run: number; wait: number }>();
  for (const [pid, now] of to.processes) {
    const then = from.processes.get(pid) ?? { runNs: 0, waitNs: 0 };
    each.set(pid, {
      run: Math.max(0, now.runNs - then.runNs) / 1e6,
      wait: Math.max(0, now.waitNs - then.waitNs) / 1e6,
    });
  }
  return each;
};

const sum = (values: Iterable<number>) => {
  let total = 0;
  for (const value of values) total += value;
  return total;
};

export const pingCpu = (before: TreeCpu, atAnswer: TreeCpu, after: TreeCpu): PingCpu => {
  const toAnswer = used(before, atAnswer);
  const whole = used(before, after);
  const workers = [...whole].filter(([pid]) => pid !== after.root);
  const [busiest, worker] = workers.reduce<[number | undefined, number]>(
    (most, [pid, use]) => (use.run > most[1] ? [pid, use.run] : most),
    [undefined, 0],
  );
  return harden({
    toAnswer: sum([...toAnswer.values()].map(use => use.run)),
    daemonToAnswer: toAnswer.get(after.root)?.run ?? 0,
    workerToAnswer: (busiest === undefined ? undefined : toAnswer.get(busiest)?.run) ?? 0,
    whole: sum([...whole.values()].map(use => use.run)),
    daemon: whole.get(after.root)?.run ?? 0,
    worker,
    otherWorkers: sum(workers.map(([, use]) => use.run)) - worker,
    waitToAnswer: sum([...toAnswer.values()].map(use => use.wait)),
  });
};
harden(pingCpu);

/** A middle and its quartiles. */
export interface Spread {
  median: number;
  p25: number;
  p75: number;
}

/** A guest's pings summed up: the medians of each part, the two totals with their quartiles. */
export interface CpuSummary {
  toAnswer: Spread;
  daemonToAnswer: number;
  workerToAnswer: number;
  whole: Spread;
  daemon: number;
  worker: number;
  otherWorkers: number;
  waitToAnswer: number;
}

const spreadOf = (values: readonly number[]): Spread => ({
  median: median(values),
  p25: percentile(values, 25),
  p75: percentile(values, 75),
});

export const summariseCpu = (pings: readonly PingCpu[]): CpuSummary =>
  harden({
    toAnswer: spreadOf(pings.map(each => each.toAnswer)),
    daemonToAnswer: median(pings.map(each => each.daemonToAnswer)),
    workerToAnswer: median(pings.map(each => each.workerToAnswer)),
    whole: spreadOf(pings.map(each => each.whole)),
    daemon: median(pings.map(each => each.daemon)),
    worker: median(pings.map(each => each.worker)),
    otherWorkers: median(pings.map(each => each.otherWorkers)),
    waitToAnswer: median(pings.map(each => each.waitToAnswer)),
  });
harden(summariseCpu);
