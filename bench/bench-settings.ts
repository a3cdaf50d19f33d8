/**
 * The bench's own settings (docs/configuration.md, "For developers"):
 * BENCH_EXCHANGES, the length of the long conversation, and BENCH_ONLY, one
 * figure run alone. Read before anything runs, so a wrong value is said in
 * one line instead of after (or instead of) a whole run.
 */
import { Fail, makeError, q, X } from '@endo/errors';
import { SINGLE_FIGURES } from './usage.js';

export type SingleFigure = keyof typeof SINGLE_FIGURES;

export interface BenchSettings {
  exchanges: number;
  only: SingleFigure | undefined;
}

const isSingleFigure = (name: string): name is SingleFigure =>
  Object.prototype.hasOwnProperty.call(SINGLE_FIGURES, name);

export const readBenchSettings = (env: Record<string, string | undefined>): BenchSettings => {
  const rawExchanges = env.BENCH_EXCHANGES;
  const exchanges = rawExchanges === undefined ? 1000 : Number(rawExchanges);
  (Number.isInteger(exchanges) && exchanges >= 200) ||
    Fail`BENCH_EXCHANGES must be a whole number ≥ 200, got ${q(rawExchanges)}`;
  const rawOnly = env.BENCH_ONLY;
  if (rawOnly === undefined || rawOnly === '') return harden({ exchanges, only: undefined });
  if (!isSingleFigure(rawOnly))
    throw makeError(
      X`BENCH_ONLY must be one of ${q(Object.keys(SINGLE_FIGURES))}, got ${q(rawOnly)}`,
    );
  return harden({ exchanges, only: rawOnly });
};
harden(readBenchSettings);

/** The real-daemon ping timer's settings (bench/real-daemon/ping-timer.ts; docs/benchmark.md). */
export interface PingTimerSettings {
  /** Pings to each guest that count, after the warm-up rounds. */
  pings: number;
  /** Rounds not counted first (BENCH_PING_WARMUP, 2): after a restart the guests' code runs cold. */
  warmup: number;
  /** The pause after each answer, so the agent's work after its reply is off the next ping's path. */
  gapMs: number;
  /** How long a guest may take to answer before the run stops, naming it. */
  timeoutMs: number;
  /** A file each run appends its figures to, one JSON line (speed-record.ts), for summarise-runs.js. */
  recordTo?: string | undefined;
}

const wholeNumber = (
  env: Record<string, string | undefined>,
  name: string,
  fallback: number,
  least: number,
): number => {
  const raw = env[name];
  const value = raw === undefined || raw === '' ? fallback : Number(raw);
  (Number.isInteger(value) && value >= least) ||
    Fail`${q(name)} must be a whole number ≥ ${q(least)}, got ${q(raw)}`;
  return value;
};

export const readPingTimerSettings = (env: Record<string, string | undefined>): PingTimerSettings =>
  harden({
    pings: wholeNumber(env, 'BENCH_PINGS', 20, 1),
    warmup: wholeNumber(env, 'BENCH_PING_WARMUP', 2, 0),
    gapMs: wholeNumber(env, 'BENCH_PING_GAP_MS', 300, 0),
    timeoutMs: wholeNumber(env, 'BENCH_PING_TIMEOUT_MS', 30_000, 1),
    recordTo: env.BENCH_PING_RECORD === '' ? undefined : env.BENCH_PING_RECORD,
  });
harden(readPingTimerSettings);
