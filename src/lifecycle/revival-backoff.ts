/**
 * Backing off across revivals (docs/behaviour.md 1.7). When the daemon at
 * f0a46042a cannot load a mailbox (`Unknown message formula type`), a call
 * on the agent's powers fails the guest's formula; the daemon cancels what
 * depends on it, collects, and revives PINS, which makes the agent again in
 * the same worker process — whose first call fails the formula again. Left
 * alone that is a storm (thousands of revivals a minute, docs/daemon-guide.md
 * "Recovering from a pending eval-proposal"). So the worker process remembers
 * each agent's failures (it outlives the incarnations it runs), and a revived
 * agent waits, longer each time, before it touches its powers: one try per
 * wait, and the daemon quiet in between.
 */
import type { Clock } from './clock.js';
import type { Log } from '../log/log.js';
import type { StatusBoard } from '../status/agent-status.js';

/** An agent's run of failed starts, as the worker process remembers it. */
interface FailedStarts {
  /** Failed starts in the run (a start that got through does not end it: the next may fail at once). */
  failures: number;
  /** When the last one failed (clock milliseconds). */
  lastAt: number;
  /** Whether the wait was said in the log (once a run). */
  told: boolean;
  /** Whether a start got through since the last failure. */
  through: boolean;
}

/** What the worker process keeps across the incarnations it runs, per agent name. */
export interface RevivalMemory {
  get(name: string): FailedStarts | undefined;
  set(name: string, value: FailedStarts): void;
  delete(name: string): boolean;
}

/** The first wait, doubled at each failure in a row, up to the longest. */
export const REVIVAL_FIRST_WAIT_MS = 5_000;
harden(REVIVAL_FIRST_WAIT_MS);
export const REVIVAL_LONGEST_WAIT_MS = 5 * 60_000;
harden(REVIVAL_LONGEST_WAIT_MS);

export const makeRevivalMemory = (): RevivalMemory => new Map<string, FailedStarts>();
harden(makeRevivalMemory);

/**
 * The daemon's worker process: one memory for the agents it runs. An
 * in-process host (a test, the simulator) passes a memory of its own.
 */
export const workerRevivals: RevivalMemory = makeRevivalMemory();
harden(workerRevivals);

/** The run of failed starts still remembered: one whose last failure is long past is over. */
const runOf = (memory: RevivalMemory, name: string, now: number): FailedStarts | undefined => {
  const failed = memory.get(name);
  if (failed !== undefined && now - failed.lastAt > REVIVAL_LONGEST_WAIT_MS * 2) {
    memory.delete(name);
    return undefined;
  }
  return failed;
};

/** How long a revived agent waits before its first call on its powers; 0 when nothing failed lately. */
const revivalWait = (memory: RevivalMemory, name: string, now: number): number => {
  const failed = runOf(memory, name, now);
  if (failed === undefined) return 0;
  const wait = Math.min(
    REVIVAL_FIRST_WAIT_MS * 2 ** Math.max(0, failed.failures - 1),
    REVIVAL_LONGEST_WAIT_MS,
  );
  return Math.max(0, failed.lastAt + wait - now);
};
harden(revivalWait);

/** Failed starts in a row, for help(); 0 once a start got through. */
const failedStarts = (memory: RevivalMemory, name: string, now: number): number => {
  const failed = runOf(memory, name, now);
  return failed === undefined || failed.through ? 0 : failed.failures;
};
harden(failedStarts);

/** Records a failed start; returns how many failed in the run (1: the first, to be told). */
const recordFailedStart = (memory: RevivalMemory, name: string, now: number): number => {
  const failed = runOf(memory, name, now);
  const failures = (failed?.failures ?? 0) + 1;
  memory.set(name, { failures, lastAt: now, told: failed?.told ?? false, through: false });
  return failures;
};
harden(recordFailedStart);

/**
 * A start that read its store through its powers. The run is kept (the daemon
 * may fail it again at once, as when another mailbox fails); returns whether
 * this ends failed starts in a row (to be said).
 */
const recordGoodStart = (memory: RevivalMemory, name: string): boolean => {
  const failed = memory.get(name);
  if (failed === undefined || failed.through) return false;
  memory.set(name, { ...failed, through: true });
  return true;
};
harden(recordGoodStart);

/**
 * Before a revived agent's first call on its powers: waits out its backoff
 * (said in the log once a run of failed starts), unless it is cancelled
 * meanwhile. Resolves false when it was cancelled.
 */
const waitAfterFailedStarts = async (options: {
  revivals: RevivalMemory;
  name: string;
  clock: Clock;
  signal: AbortSignal;
  log: Log;
}): Promise<boolean> => {
  const { revivals, name, clock, signal, log } = options;
  const wait = revivalWait(revivals, name, clock.now());
  if (wait <= 0 || signal.aborted) return !signal.aborted;
  const failed = revivals.get(name);
  if (failed !== undefined && !failed.told) {
    revivals.set(name, { ...failed, told: true });
    log(
      `the daemon made me again after my mailbox failed to load: I wait ${Math.ceil(wait / 1000)} s before I try again, twice as long after each failure (at most ${REVIVAL_LONGEST_WAIT_MS / 60_000} minutes), so the daemon is not kept reviving me`,
    );
  }
  return new Promise<boolean>(resolve => {
    const onAbort = () => {
      stop();
      resolve(false);
    };
    const stop = clock.at(clock.now() + wait, () => {
      signal.removeEventListener('abort', onAbort);
      resolve(true);
    });
    signal.addEventListener('abort', onAbort, { once: true });
  });
};

/**
 * One incarnation's start, as run-agent sees it: the wait before its first
 * call, the failure of its start (counted once, however it ended: stopped or
 * cancelled), its store read, and its section of help().
 */
export const makeStartWatch = (
  revivals: RevivalMemory,
  name: string,
  clock: Clock,
  status: StatusBoard,
) => {
  let failures: number | undefined;
  status.section('Start', () => {
    const failed = failedStarts(revivals, name, clock.now());
    if (failed === 0) return [];
    const wait = Math.ceil(revivalWait(revivals, name, clock.now()) / 1000);
    return [
      `my mailbox failed to load at ${failed} start(s) in a row (Unknown message formula type: an eval-proposal is pending); ${wait > 0 ? `I try again in ${wait} s` : 'trying again now'}`,
    ];
  });
  return harden({
    /** Waits out the backoff; false when cancelled meanwhile. */
    wait: (signal: AbortSignal, log: Log) =>
      waitAfterFailedStarts({ revivals, name, clock, signal, log }),
    /** This start failed for want of its mailbox; true when it is the run's first (to be said). */
    failedFirst: () => (failures ??= recordFailedStart(revivals, name, clock.now())) === 1,
    /** Its store was read through its powers; true when that ends failed starts in a row (to be said). */
    through: () => recordGoodStart(revivals, name),
  });
};
harden(makeStartWatch);
