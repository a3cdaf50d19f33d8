/**
 * The CPU a real daemon and its workers have used, read from Linux's /proc
 * (docs/benchmark.md, "CPU a ping, beside wall time"): for the ping timer,
 * whose wall times a shared machine's load swamps, while the CPU a ping costs
 * the processes doing its work moves far less with the load.
 *
 * Read per thread from `/proc/<pid>/task/<tid>/schedstat`, in nanoseconds:
 * `/proc/<pid>/stat`'s utime and stime count 10 ms ticks, as coarse as the
 * whole difference being looked for. The second field, the time a thread
 * was ready to run but waited for a core, is read too: it is what the load
 * adds to a ping's wall time.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { Fail, q } from '@endo/errors';

/** One process's threads, summed. */
export interface ProcessCpu {
  /** Nanoseconds on a core. */
  runNs: number;
  /** Nanoseconds ready to run, waiting for a core. */
  waitNs: number;
}

/** The daemon's process and its children (the workers), each by pid; the daemon's under `root`. */
export interface TreeCpu {
  root: number;
  processes: ReadonlyMap<number, ProcessCpu>;
}

/** One line of schedstat: time on a core, time waiting for one, timeslices (all threads' own). */
export const parseSchedstat = (text: string): ProcessCpu => {
  const [run, wait] = text.trim().split(/\s+/).map(Number);
  (Number.isFinite(run) && Number.isFinite(wait)) || Fail`not a schedstat line: ${q(text)}`;
  return { runNs: run!, waitNs: wait! };
};
harden(parseSchedstat);

/** The pids a children file lists (space-separated, possibly none). */
export const parseChildren = (text: string): number[] =>
  text
    .trim()
    .split(/\s+/)
    .filter(word => word !== '')
    .map(word => {
      /^\d+$/.test(word) || Fail`not a pid in a children file: ${q(word)}`;
      return Number(word);
    });
harden(parseChildren);

/** A thread or process that ended between listing and reading: skipped, not an error. */
const gone = (error: unknown) =>
  (error as { code?: unknown }).code === 'ENOENT' || (error as { code?: unknown }).code === 'ESRCH';

const readOrSkip = (path: string): string | undefined => {
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    if (gone(error)) return undefined;
    throw error;
  }
};

const threadsOf = (pid: number): string[] => {
  try {
    return readdirSync(`/proc/${pid}/task`);
  } catch (error) {
    if (gone(error)) return [];
    throw error;
  }
};

/** A process's threads summed; undefined when it has ended. */
export const readProcessCpu = (pid: number): ProcessCpu | undefined => {
  const threads = threadsOf(pid);
  if (threads.length === 0) return undefined;
  let runNs = 0;
  let waitNs = 0;
  for (const thread of threads) {
    const text = readOrSkip(`/proc/${pid}/task/${thread}/schedstat`);
    // Gone, or ending as it was read.
    if (text === undefined || text.trim() === '') continue;
    const each = parseSchedstat(text);
    runNs += each.runNs;
    waitNs += each.waitNs;
  }
  return { runNs, waitNs };
};
harden(readProcessCpu);

const childrenOf = (pid: number): number[] =>
  threadsOf(pid).flatMap(thread =>
    parseChildren(readOrSkip(`/proc/${pid}/task/${thread}/children`) ?? ''),
  );

/** The process `root` and its children, each read now; a child that ended meanwhile is left out. */
export const readTreeCpu = (root: number): TreeCpu => {
  const processes = new Map<number, ProcessCpu>();
  for (const pid of [root, ...childrenOf(root)]) {
    const cpu = readProcessCpu(pid);
    if (cpu !== undefined) processes.set(pid, cpu);
  }
  processes.has(root) || Fail`no process ${q(root)} to read the CPU of`;
  return { root, processes };
};
harden(readTreeCpu);

/**
 * Where the daemon's pid is: `BENCH_DAEMON_PID`, or the `endo.pid` the daemon writes in its
 * ephemeral state folder (`$XDG_RUNTIME_DIR/endo`, as endo reads it), or none (no CPU figures).
 */
export const findDaemonPid = (
  env: Record<string, string | undefined>,
  readText: (path: string) => string | undefined = readOrSkip,
): number | undefined => {
  const given = env.BENCH_DAEMON_PID;
  if (given !== undefined && given !== '') {
    /^\d+$/.test(given) || Fail`BENCH_DAEMON_PID must be a pid, got ${q(given)}`;
    return Number(given);
  }
  if (env.XDG_RUNTIME_DIR === undefined) return undefined;
  const text = readText(`${env.XDG_RUNTIME_DIR}/endo/endo.pid`)?.trim();
  if (text === undefined) return undefined;
  /^\d+$/.test(text) || Fail`endo.pid holds no pid: ${q(text)}`;
  return Number(text);
};
harden(findDaemonPid);
