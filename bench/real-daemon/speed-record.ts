/**
 * One ping-timer run's figures as a JSON line (`BENCH_PING_RECORD`,
 * docs/benchmark.md), so that several runs can be read together
 * (speed-summary.ts): each guest's median and 90th percentile of wall time
 * and, where the timer read it, its CPU a ping (ping-cpu.ts).
 */
import { loadavg } from 'node:os';
import { makeError, q, X } from '@endo/errors';
import type { PingTimerSettings } from '../bench-settings.js';
import { median, percentile } from '../stats.js';
import { summariseCpu, type CpuSummary, type PingCpu } from './ping-cpu.js';

interface GuestRecord {
  guest: string;
  wall: { median: number; p90: number };
  cpu?: CpuSummary;
}

export interface RunRecord {
  at: string;
  /** The machine's load average over the last minute when the run ended. */
  load: number;
  pings: number;
  guests: GuestRecord[];
}

/** The record of what the timer measured (its PingTimes), each guest's pings summed up. */
export const runRecord = (
  times: readonly { guest: string; samples: readonly number[]; cpu: readonly PingCpu[] }[],
  settings: PingTimerSettings,
  at = new Date(),
  load = loadavg()[0]!,
): RunRecord =>
  harden({
    at: at.toISOString(),
    load,
    pings: settings.pings,
    guests: times.map(({ guest, samples, cpu }) => ({
      guest,
      wall: { median: median(samples), p90: percentile(samples, 90) },
      ...(cpu.length === 0 ? {} : { cpu: summariseCpu(cpu) }),
    })),
  });
harden(runRecord);

const isNumber = (value: unknown): value is number =>
  typeof value === 'number' && Number.isFinite(value);

/** An object whose named fields are each a number. */
const hasNumbers = (value: unknown, keys: readonly string[]): value is Record<string, number> =>
  typeof value === 'object' &&
  value !== null &&
  keys.every(key => isNumber((value as Record<string, unknown>)[key]));

const isSpread = (value: unknown) => hasNumbers(value, ['median', 'p25', 'p75']);

const isCpu = (value: unknown): value is CpuSummary =>
  hasNumbers(value, [
    'daemonToAnswer',
    'workerToAnswer',
    'daemon',
    'worker',
    'otherWorkers',
    'waitToAnswer',
  ]) &&
  isSpread(value.toAnswer) &&
  isSpread(value.whole);

const isGuest = (value: unknown): value is GuestRecord => {
  const guest = value as Record<string, unknown> | null;
  return (
    typeof guest === 'object' &&
    guest !== null &&
    typeof guest.guest === 'string' &&
    hasNumbers(guest.wall, ['median', 'p90']) &&
    (guest.cpu === undefined || isCpu(guest.cpu))
  );
};

const isRun = (value: unknown): value is RunRecord => {
  const run = value as Record<string, unknown> | null;
  return (
    typeof run === 'object' &&
    run !== null &&
    typeof run.at === 'string' &&
    isNumber(run.load) &&
    isNumber(run.pings) &&
    Array.isArray(run.guests) &&
    run.guests.every(isGuest)
  );
};

/** The runs of a record file, one JSON line each (blank lines skipped); a bad line is refused by its number. */
export const parseRunRecords = (text: string, source: string): RunRecord[] =>
  text.split('\n').flatMap((line, index): RunRecord[] => {
    if (line.trim() === '') return [];
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      throw makeError(X`${q(source)} line ${q(index + 1)} is not JSON`);
    }
    if (!isRun(value))
      throw makeError(X`${q(source)} line ${q(index + 1)} is not a ping-timer run's record`);
    return [value];
  });
harden(parseRunRecords);
