/**
 * Times pings in a real daemon (docs/benchmark.md, "Measuring both ratios in
 * a real daemon"): run as the host (`endo run --UNCONFINED
 * dist/bench/real-daemon/ping-timer.js --powers AGENT lal echo-llm echo`), it
 * sends `ping-<n>` to each guest named, once a round in the round's own
 * order (ping-order.ts), and times it to the answer,
 * read from the host's own mail stream as it arrives (no polling, which
 * would load the daemon it measures), then prints each guest's median and
 * its ratio to the last guest's, the floor.
 */
import { appendFileSync } from 'node:fs';
import { Fail } from '@endo/errors';
import { E } from '@endo/far';
import { makeDaemonAdapter } from '../../src/daemon/daemon-adapter.js';
import { readPingTimerSettings, type PingTimerSettings } from '../bench-settings.js';
import { median, ms, percentile } from '../stats.js';
import { sayToConsole, type Say } from '../../setup/say.js';
import { isPing, pingText, readAnswer } from './ping-words.js';
import { pingOrder } from './ping-order.js';
import { pingCpu, summariseCpu, type CpuSummary, type PingCpu } from './ping-cpu.js';
import { findDaemonPid, readTreeCpu, type TreeCpu } from './process-cpu.js';
import { runRecord } from './speed-record.js';

interface HostPowers {
  send(recipient: string, strings: string[], edgeNames: string[], petNames: string[]): void;
  dismiss(number: bigint): void;
  listMessages(): readonly { number?: unknown }[] | Promise<readonly { number?: unknown }[]>;
  has(petName: string): boolean | Promise<boolean>;
  lookup(petName: string): unknown;
}

/**
 * The floors (`<guest>-floor`, docs/benchmark.md) are not pinned, so the daemon does not make them
 * again after a restart, and their pings would wait unanswered; looking one up makes it again.
 */
const wakeFloors = async (powers: HostPowers, guests: readonly string[]): Promise<void> => {
  for (const guest of guests) {
    const floor = `${guest}-floor`;
    if (await E(powers).has(floor)) await E(powers).lookup(floor);
  }
};

interface MailRecord {
  number?: unknown;
  strings?: unknown;
  done?: unknown;
}

export interface PingTimes {
  guest: string;
  /** Milliseconds from each counted send to its answer. */
  samples: number[];
  /** What each counted ping cost the daemon and its workers in CPU, when the timer reads it. */
  cpu: PingCpu[];
}

const pause = (milliseconds: number) =>
  new Promise<void>(resolve => {
    setTimeout(resolve, milliseconds);
  });

/** Waits for the answers to the pings it is told of, from the host's mail stream; dismisses what it reads of them. */
const watchAnswers = async (powers: HostPowers) => {
  const daemon = await makeDaemonAdapter(powers, () => {});
  const stream = await daemon.follow();
  const waiting = new Map<string, { answered: () => void; failed: (why: string) => void }>();
  // Dismissed once the run is over: off the timed path, and f0a46042a refuses a message dismissed
  // as soon as its stream gives it ("Formula does not exist for pet name").
  const toDismiss = new Set<bigint>();
  const dismiss = (number: unknown) => {
    if (typeof number === 'bigint') toDismiss.add(number);
  };
  const read = async () => {
    for (;;) {
      const { done, value } = (await stream.next()) as IteratorResult<MailRecord>;
      if (done) return;
      // A reply still being written (the newest daemon's live progress) is not the answer yet.
      if (value.done === false) continue;
      const answer = readAnswer(value.strings);
      const wanted = answer === undefined ? undefined : waiting.get(answer.ping);
      if (answer !== undefined && wanted !== undefined) {
        waiting.delete(answer.ping);
        if (answer.failed === undefined) wanted.answered();
        else wanted.failed(answer.failed);
      }
      // The host's copies of its pings and every answer are dismissed, so the inbox stays as it was.
      if (answer !== undefined || isPing(value.strings)) dismiss(value.number);
    }
  };
  void read().catch(() => {});
  return {
    answerTo: (ping: string, guest: string, timeoutMs: number): Promise<void> =>
      new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => {
          waiting.delete(ping);
          reject(Error(`${guest} did not answer ${ping} within ${timeoutMs} ms`));
        }, timeoutMs);
        waiting.set(ping, {
          answered: () => {
            clearTimeout(timer);
            resolve();
          },
          failed: why => {
            clearTimeout(timer);
            reject(Error(`${guest} could not answer ${ping}: ${why}`));
          },
        });
      }),
    stop: async () => {
      // Not awaited: f0a46042a's iterator settles `return` only after its pending `next`.
      void Promise.resolve(stream.return(undefined)).catch(() => {});
      // Run as `endo run` does, in the CLI, whose CapTP prints every rejected answer raw: only
      // what is still listed is dismissed, and one at a time, since a burst of calls fills the
      // socket and each write then waits on 'drain' (MaxListenersExceededWarning).
      const listed = new Set((await E(powers).listMessages()).map(message => message.number));
      for (const number of toDismiss) if (listed.has(number)) await E(powers).dismiss(number);
    },
  };
};

/** Pings each guest once a round, in the round's own order; the first rounds warm up and are not counted. */
export const timePings = async (
  powers: HostPowers,
  guests: readonly string[],
  settings: PingTimerSettings,
  readCpu?: () => TreeCpu,
): Promise<PingTimes[]> => {
  guests.length > 0 || Fail`name the guests to ping, the floor last`;
  await wakeFloors(powers, guests);
  const watch = await watchAnswers(powers);
  const times = guests.map(guest => ({ guest, samples: [] as number[], cpu: [] as PingCpu[] }));
  let n = Date.now() % 1_000_000_000;
  try {
    for (let round = 0; round < settings.warmup + settings.pings; round += 1) {
      for (const index of pingOrder(times.length, round)) {
        const each = times[index]!;
        n += 1;
        const ping = pingText(n);
        const answered = watch.answerTo(ping, each.guest, settings.timeoutMs);
        const counted = round >= settings.warmup;
        // Read off the timed path: before the clock starts, and after it stops.
        const before = counted ? readCpu?.() : undefined;
        const started = performance.now();

        await E(powers).send(each.guest, [ping], [], []);

        await answered;
        const took = performance.now() - started;
        const atAnswer = counted ? readCpu?.() : undefined;
        // The gap holds the guest's work after its answer, counted in the ping's whole CPU.
        await pause(settings.gapMs);
        if (!counted) continue;
        each.samples.push(took);
        if (before !== undefined && atAnswer !== undefined)
          each.cpu.push(pingCpu(before, atAnswer, readCpu!()));
      }
    }
  } finally {
    await watch.stop();
  }
  return harden(times);
};
harden(timePings);

/**
 * A figure against its floor's; a floor read as 0 ms (a clock that steps coarser than the ping,
 * as some kernels' schedstat does) has no ratio, and the line says so rather than NaN.
 */
const ratio = (value: number, floor: number, floorName: string) =>
  floor > 0
    ? `${(value / floor).toFixed(2)}× ${floorName}`
    : `no ratio (${floorName} read 0 ms: below the clock's step)`;

/** A guest's CPU line: its medians, to the answer and whole, each against the floor's and in parts. */
const cpuLine = (cpu: CpuSummary, floor: CpuSummary, floorName: string, indent: string) =>
  `${indent}CPU a ping: to the answer ${ms(cpu.toAnswer.median)} (p25–p75 ${ms(cpu.toAnswer.p25)}–${ms(cpu.toAnswer.p75)}), ${ratio(cpu.toAnswer.median, floor.toAnswer.median, floorName)}, ` +
  `daemon ${ms(cpu.daemonToAnswer)}, its worker ${ms(cpu.workerToAnswer)}; ` +
  `whole ${ms(cpu.whole.median)} (${ms(cpu.whole.p25)}–${ms(cpu.whole.p75)}), ${ratio(cpu.whole.median, floor.whole.median, floorName)}, ` +
  `daemon ${ms(cpu.daemon)}, its worker ${ms(cpu.worker)}, other workers ${ms(cpu.otherWorkers)}; waited for a core ${ms(cpu.waitToAnswer)} before the answer`;

/**
 * The report: one line per guest, its median, 90th percentile and ratio to the last guest's
 * median; where the CPU was read, a line under each with its CPU a ping against the floor's.
 */
export const pingReport = (times: readonly PingTimes[], settings: PingTimerSettings): string[] => {
  const floor = times.at(-1)!;
  const floorMedian = median(floor.samples);
  const floorCpu = floor.cpu.length > 0 ? summariseCpu(floor.cpu) : undefined;
  const width = Math.max(...times.map(each => each.guest.length));
  return [
    `${settings.pings} pings to each guest after ${settings.warmup} warm-up rounds, ${settings.gapMs} ms apart; answers read from the host's mail stream`,
    ...(floorCpu === undefined
      ? ['  CPU not read (no daemon pid: set BENCH_DAEMON_PID or XDG_RUNTIME_DIR)']
      : []),
    ...times.flatMap(({ guest, samples, cpu }) => [
      `  ${guest.padEnd(width)}  median ${ms(median(samples))}, p90 ${ms(percentile(samples, 90))}, ${ratio(median(samples), floorMedian, floor.guest)}`,
      ...(floorCpu === undefined || cpu.length === 0
        ? []
        : [cpuLine(summariseCpu(cpu), floorCpu, floor.guest, ' '.repeat(width + 4))]),
    ]),
  ];
};
harden(pingReport);

/** Reads the settings, times the pings and says the report: `main` with what it reads made explicit. */
export const runPingTimer = async (
  powers: HostPowers,
  guests: readonly string[],
  env: Record<string, string | undefined>,
  say: Say,
): Promise<void> => {
  const settings = readPingTimerSettings(env);
  const daemon = findDaemonPid(env);
  const times = await timePings(
    powers,
    guests,
    settings,
    daemon === undefined ? undefined : () => readTreeCpu(daemon),
  );
  for (const line of pingReport(times, settings)) say(line);
  if (settings.recordTo !== undefined)
    appendFileSync(settings.recordTo, `${JSON.stringify(runRecord(times, settings))}\n`);
};
harden(runPingTimer);

/**
 * `endo run`'s entry: the guests to ping, the floor last; settings from BENCH_PINGS, BENCH_PING_WARMUP,
 * BENCH_PING_GAP_MS, BENCH_PING_TIMEOUT_MS, BENCH_PING_RECORD and BENCH_DAEMON_PID.
 */
export const main = (powers: HostPowers, ...guests: string[]): Promise<void> =>
  runPingTimer(powers, guests, process.env, sayToConsole);
harden(main);
