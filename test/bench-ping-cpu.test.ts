/**
 * The ping timer's CPU figure (docs/benchmark.md, "CPU a ping, beside wall
 * time"): /proc read right, each ping's CPU split into the daemon's, the
 * guest's worker's and the rest, and the runs read against the target with
 * their spread (bench/real-daemon/process-cpu.ts, ping-cpu.ts,
 * speed-record.ts, speed-summary.ts). No time is asserted: the readings are
 * fixtures, or only compared with what must have grown.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, test } from 'vitest';
import fc from 'fast-check';
import {
  findDaemonPid,
  parseChildren,
  parseSchedstat,
  readProcessCpu,
  readTreeCpu,
  type TreeCpu,
} from '../bench/real-daemon/process-cpu.js';
import { pingCpu, summariseCpu, type PingCpu } from '../bench/real-daemon/ping-cpu.js';
import { parseRunRecords, runRecord, type RunRecord } from '../bench/real-daemon/speed-record.js';
import { pairRatios, readTarget, summariseRuns } from '../bench/real-daemon/speed-summary.js';

const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '..');
const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});
const scratch = () => {
  const folder = mkdtempSync(join(tmpdir(), 'lal-fae-ping-cpu-'));
  folders.push(folder);
  return folder;
};

describe('reading /proc', () => {
  test('a schedstat line: time on a core and time waiting for one, in ns; anything else refused', () => {
    expect(parseSchedstat('2073423 51234 7\n')).toEqual({ runNs: 2073423, waitNs: 51234 });
    expect(() => parseSchedstat('')).toThrow(/not a schedstat line/);
    expect(() => parseSchedstat('12 x 3')).toThrow(/not a schedstat line: "12 x 3"/);
  });

  test('a children file: the pids, or none', () => {
    expect(parseChildren('4509 4515 4574 \n')).toEqual([4509, 4515, 4574]);
    expect(parseChildren('')).toEqual([]);
    expect(() => parseChildren('4509 node')).toThrow(/not a pid in a children file: "node"/);
  });

  test('this process: its threads summed, growing with work; a process that is gone reads as none', () => {
    const first = readProcessCpu(process.pid)!;
    expect(first.runNs).toBeGreaterThan(0);
    let now = first;
    // Work until the reading moves (bounded: the kernel's counts move within microseconds).
    for (let round = 0; round < 1000 && now.runNs === first.runNs; round += 1) {
      let spin = 0;
      for (let index = 0; index < 100_000; index += 1) spin += index % 7;
      expect(spin).toBeGreaterThan(0);
      now = readProcessCpu(process.pid)!;
    }
    expect(now.runNs).toBeGreaterThan(first.runNs);
    // Beyond the kernel's largest pid.
    expect(readProcessCpu(99_999_999)).toBeUndefined();
    expect(() => readTreeCpu(99_999_999)).toThrow(/no process 99999999 to read the CPU of/);
  });

  test('a process tree: the root and each child it started', async () => {
    const child = spawn('sleep', ['30'], { stdio: 'ignore' });
    try {
      await new Promise(resolve => child.once('spawn', resolve));
      const tree = readTreeCpu(process.pid);
      expect(tree.root).toBe(process.pid);
      expect(tree.processes.has(process.pid)).toBe(true);
      expect(tree.processes.has(child.pid!)).toBe(true);
    } finally {
      child.kill();
    }
  });

  test("the daemon's pid: BENCH_DAEMON_PID, else endo.pid in $XDG_RUNTIME_DIR/endo, else none", () => {
    const read: string[] = [];
    const files = (text: string | undefined) => (path: string) => {
      read.push(path);
      return text;
    };
    expect(findDaemonPid({ BENCH_DAEMON_PID: '4143', XDG_RUNTIME_DIR: '/r' }, files('9'))).toBe(
      4143,
    );
    expect(read).toEqual([]);
    expect(findDaemonPid({ XDG_RUNTIME_DIR: '/r' }, files('4464\n'))).toBe(4464);
    expect(read).toEqual(['/r/endo/endo.pid']);
    expect(findDaemonPid({ XDG_RUNTIME_DIR: '/r' }, files(undefined))).toBeUndefined();
    expect(findDaemonPid({}, files('1'))).toBeUndefined();
    expect(() => findDaemonPid({ BENCH_DAEMON_PID: 'daemon' })).toThrow(
      /BENCH_DAEMON_PID must be a pid, got "daemon"/,
    );
    expect(() => findDaemonPid({ XDG_RUNTIME_DIR: '/r' }, files('gone'))).toThrow(
      /endo.pid holds no pid: "gone"/,
    );
  });
});

/** A tree reading: the daemon (pid 1) and workers, each [run ms, wait ms]. */
const tree = (each: Record<number, [number, number]>): TreeCpu => ({
  root: 1,
  processes: new Map(
    Object.entries(each).map(([pid, [run, wait]]) => [
      Number(pid),
      { runNs: run * 1e6, waitNs: wait * 1e6 },
    ]),
  ),
});

describe("a ping's CPU", () => {
  test('split into the daemon, the busiest worker and the other workers; to the answer and whole', () => {
    const before = tree({ 1: [100, 10], 20: [50, 5], 30: [70, 0] });
    const atAnswer = tree({ 1: [108, 14], 20: [55, 6], 30: [70, 0] });
    const after = tree({ 1: [112, 15], 20: [62, 6], 30: [71, 0] });
    expect(pingCpu(before, atAnswer, after)).toEqual({
      toAnswer: 13,
      daemonToAnswer: 8,
      workerToAnswer: 5,
      whole: 25,
      daemon: 12,
      worker: 12,
      otherWorkers: 1,
      waitToAnswer: 5,
    });
  });

  test('a worker started during the ping counts from nothing; one that ended is left out', () => {
    const before = tree({ 1: [100, 0], 20: [50, 0], 30: [40, 0] });
    const atAnswer = tree({ 1: [101, 0], 40: [3, 0] });
    const after = tree({ 1: [102, 0], 40: [9, 0] });
    expect(pingCpu(before, atAnswer, after)).toMatchObject({
      toAnswer: 4,
      workerToAnswer: 3,
      whole: 11,
      daemon: 2,
      worker: 9,
      otherWorkers: 0,
    });
  });

  test("a guest's pings summed up: medians, and the totals' quartiles", () => {
    const ping = (whole: number): PingCpu => ({
      toAnswer: whole / 2,
      daemonToAnswer: whole / 4,
      workerToAnswer: whole / 4,
      whole,
      daemon: whole - 10,
      worker: 10,
      otherWorkers: 0,
      waitToAnswer: 1,
    });
    const summary = summariseCpu([40, 10, 30, 20].map(ping));
    expect(summary.whole).toEqual({ median: 20, p25: 10, p75: 30 });
    expect(summary.toAnswer).toEqual({ median: 10, p25: 5, p75: 15 });
    expect(summary.daemon).toBe(10);
    expect(summary.workerToAnswer).toBe(5);
  });
});

describe('reading a target from runs', () => {
  test('every run under: met; every run over: not met; both sides within the margin: the median', () => {
    expect(readTarget([0.98, 1.0, 1.05, 0.9, 1.01])).toMatchObject({
      verdict: 'met',
      median: 1.0,
      low: 0.9,
      high: 1.05,
    });
    expect(readTarget([1.06, 1.3, 1.1, 1.07, 1.2]).verdict).toBe('not met');
    expect(readTarget([1.03, 1.04, 1.06, 1.02, 1.05])).toMatchObject({ verdict: 'met' });
    expect(readTarget([1.04, 1.06, 1.07, 1.06, 1.05])).toMatchObject({ verdict: 'not met' });
  });

  test('runs on both sides spread wider than the margin show nothing, and say so', () => {
    const read = readTarget([1.0, 1.15, 1.04, 1.3, 1.02]);
    expect(read.verdict).toBe('not shown');
    expect(read.spread).toBeCloseTo(0.3);
    expect(read.why).toBe('runs on both sides, spread 0.30 wider than the margin 0.05');
  });

  test('fewer than five runs show nothing', () => {
    expect(readTarget([0.9, 0.91, 0.92, 0.93])).toMatchObject({
      verdict: 'not shown',
      why: '4 runs, fewer than 5',
    });
  });

  test('for any runs: met only with the median at or under the target, not met only over it, the order of runs immaterial', () => {
    fc.assert(
      fc.property(
        fc.array(fc.double({ min: 0.5, max: 2, noNaN: true }), { minLength: 1, maxLength: 12 }),
        ratios => {
          const read = readTarget(ratios);
          if (read.verdict === 'met') expect(read.median).toBeLessThanOrEqual(1.05);
          if (read.verdict === 'not met') expect(read.median).toBeGreaterThan(1.05);
          if (read.verdict !== 'not shown') expect(ratios.length).toBeGreaterThanOrEqual(5);
          expect(readTarget([...ratios].reverse()).verdict).toBe(read.verdict);
        },
      ),
    );
  });
});

/** A run's record with the guests' wall medians and CPU to the answer (whole: twice that). */
const run = (at: string, guests: Record<string, [number, number | undefined]>): RunRecord => ({
  at,
  load: 2,
  pings: 20,
  guests: Object.entries(guests).map(([guest, [wall, cpu]]) => ({
    guest,
    wall: { median: wall, p90: wall * 2 },
    ...(cpu === undefined
      ? {}
      : {
          cpu: {
            toAnswer: { median: cpu, p25: cpu, p75: cpu },
            daemonToAnswer: cpu / 2,
            workerToAnswer: cpu / 2,
            whole: { median: cpu * 2, p25: cpu * 2, p75: cpu * 2 },
            daemon: cpu,
            worker: cpu,
            otherWorkers: 0,
            waitToAnswer: 0,
          },
        }),
  })),
});

describe('the runs read together', () => {
  test("each run's ratio of one guest's median to another's, for wall time and CPU", () => {
    const runs = [
      run('a', { quiet: [40, 20], echosdk: [20, 10] }),
      run('b', { quiet: [30, 30], echosdk: [30, 20] }),
      run('c', { quiet: [30, undefined], echosdk: [15, undefined] }),
    ];
    expect(pairRatios(runs, 'quiet', 'echosdk', 'wall')).toEqual([2, 1, 2]);
    expect(pairRatios(runs, 'quiet', 'echosdk', 'cpuToAnswer')).toEqual([2, 1.5]);
    expect(pairRatios(runs, 'quiet', 'echosdk', 'cpuWhole')).toEqual([2, 1.5]);
    expect(() => pairRatios(runs, 'prog', 'echosdk', 'wall')).toThrow(
      /the run at "a" pinged no "prog"/,
    );
  });

  test("a run whose floor's CPU read 0 ms (a clock coarser than the ping) is left out of the CPU figures, not read as Infinity", () => {
    const runs = [
      run('a', { quiet: [40, 4], echosdk: [20, 0] }),
      run('b', { quiet: [30, 30], echosdk: [30, 20] }),
    ];
    expect(pairRatios(runs, 'quiet', 'echosdk', 'cpuToAnswer')).toEqual([1.5]);
    expect(pairRatios(runs, 'quiet', 'echosdk', 'cpuWhole')).toEqual([1.5]);
    expect(pairRatios(runs, 'quiet', 'echosdk', 'wall')).toEqual([2, 1]);
  });

  test('the table: the median, range and spread of each pair and figure, and its verdict', () => {
    const wall = [1.2, 0.9, 1.0, 1.3, 1.01];
    const cpu = [1.01, 1.02, 1.0, 1.03, 1.02];
    const runs = wall.map((ratio, index) =>
      run(`t${index}`, { quiet: [ratio * 30, cpu[index]! * 40], echosdk: [30, 40] }),
    );
    const lines = summariseRuns(runs, [['quiet', 'echosdk']]);
    expect(lines[0]).toBe(
      '5 runs, t0 to t4, load average 2.0–2.0; target ≤ 1.05×, the median of at least 5 runs',
    );
    expect(lines[1]).toBe(
      '  quiet ÷ echosdk, wall time, send → answer: 1.01× (0.90×–1.30×, spread 0.40; runs 1.20× 0.90× 1.00× 1.30× 1.01×) → not shown (runs on both sides, spread 0.40 wider than the margin 0.05)',
    );
    expect(lines[2]).toMatch(/^ {2}quiet ÷ echosdk, CPU, send → answer: 1\.02× .* → met \(/);
    expect(lines[3]).toMatch(/^ {2}quiet ÷ echosdk, CPU, the whole ping: 1\.02× .* → met \(/);
    expect(lines).toHaveLength(4);
  });

  test('a run record written as a JSON line reads back; a bad line is refused by its number', () => {
    const cpu: PingCpu = {
      toAnswer: 5,
      daemonToAnswer: 3,
      workerToAnswer: 2,
      whole: 9,
      daemon: 6,
      worker: 3,
      otherWorkers: 0,
      waitToAnswer: 1,
    };
    const record = runRecord(
      [
        { guest: 'quiet', samples: [30, 10, 20], cpu: [cpu, cpu] },
        { guest: 'echo', samples: [5], cpu: [] },
      ],
      { pings: 3, warmup: 2, gapMs: 0, timeoutMs: 1 },
      new Date('2026-11-29T18:00:00Z'),
      1.5,
    );
    expect(record.guests[0]).toMatchObject({ wall: { median: 20, p90: 30 } });
    expect(record.guests[0]!.cpu?.whole.median).toBe(9);
    expect(record.guests[1]!.cpu).toBeUndefined();
    const text = `${JSON.stringify(record)}\n\n${JSON.stringify(record)}\n`;
    expect(parseRunRecords(text, 'runs.jsonl')).toEqual([record, record]);
    expect(() => parseRunRecords(`${JSON.stringify(record)}\n{"at":`, 'runs.jsonl')).toThrow(
      /"runs.jsonl" line 2 is not JSON/,
    );
    const noWall = { ...record, guests: [{ guest: 'quiet' }] };
    expect(() => parseRunRecords(JSON.stringify(noWall), 'runs.jsonl')).toThrow(
      /"runs.jsonl" line 1 is not a ping-timer run's record/,
    );
  });

  test('summarise-runs.js, run by node: the table for a record file; a wrong pair named', () => {
    const file = join(scratch(), 'runs.jsonl');
    const runs = [0, 1, 2, 3, 4].map(index =>
      run(`t${index}`, { quiet: [31, 40], echosdk: [30, 40] }),
    );
    writeFileSync(file, runs.map(each => JSON.stringify(each)).join('\n'));
    const program = join(repoRoot, 'dist/bench/real-daemon/summarise-runs.js');
    const done = spawnSync(process.execPath, [program, file, 'quiet/echosdk'], {
      encoding: 'utf8',
    });
    expect(done.stderr).toBe('');
    expect(done.stdout.split('\n')[1]).toMatch(
      /^ {2}quiet ÷ echosdk, wall time, send → answer: 1\.03× .* → met \(every run at or under the target\)$/,
    );
    const wrong = spawnSync(process.execPath, [program, file, 'quiet'], { encoding: 'utf8' });
    expect(wrong.status).toBe(1);
    expect(wrong.stderr).toMatch(/a pair is <guest>\/<floor>, got "quiet"/);
    expect(readFileSync(file, 'utf8')).toContain('"quiet"');
  });
});
