/**
 * Cgroups of its own for one sandboxed command, where the worker may make
 * them: a pids cgroup (the kernel refuses a fork beyond `pids.max` whoever
 * the process runs as — this matters because the daemon often runs as root,
 * and the kernel exempts root from RLIMIT_NPROC, inside bubblewrap too) and a
 * memory cgroup (a bound on the command's total memory, where RLIMIT_AS
 * bounds each process alone).
 *
 * With cgroup v1 each controller has a hierarchy of its own, and the new
 * cgroup goes under the worker's cgroup there. With cgroup v2 a process is
 * in one cgroup, which may hold processes only as a leaf: the new cgroup goes
 * beside the worker's (under the root when the worker is in the root), where
 * the parent enables the controller for its children. What cannot be made is
 * reported as not bounded, and the caller decides.
 */
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmdirSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';

export interface CommandCgroups {
  /** The `cgroup.procs` files a process writes its pid to, to join them all. */
  procsFiles: string[];
  pidsBounded: boolean;
  memoryBounded: boolean;
  /** Kills what is left in them and removes them (a busy one is left to a later sweep). */
  release(): void;
}

type Controller = 'pids' | 'memory';

/** The limit files of each controller, required first; the optional ones (no swap) are tried. */
const LIMITS = {
  pids: { v1: ['pids.max'], v2: ['pids.max'] },
  memory: {
    v1: ['memory.limit_in_bytes', 'memory.memsw.limit_in_bytes'],
    v2: ['memory.max', 'memory.swap.max'],
  },
} as const;

const PREFIX = 'lal-fae-run-';
let made = 0;

const readText = (file: string): string | undefined => {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
};

interface Mount {
  root: string;
  mountPoint: string;
  fsType: string;
  superOptions: string[];
}

const readMounts = (): Mount[] =>
  (readText('/proc/self/mountinfo') ?? '')
    .split('\n')
    .filter(line => line !== '')
    .map(line => {
      const [before, after = ''] = line.split(' - ');
      const fields = before!.split(' ');
      const [fsType = '', , superOptions = ''] = after.split(' ');
      return {
        root: fields[3] ?? '',
        mountPoint: fields[4] ?? '',
        fsType,
        superOptions: superOptions.split(','),
      };
    });

const inside = (mount: Mount, cgroupPath: string): string => {
  const relative =
    mount.root !== '/' && cgroupPath.startsWith(mount.root)
      ? cgroupPath.slice(mount.root.length)
      : cgroupPath;
  return path.join(mount.mountPoint, relative);
};

/** Where a new cgroup may go: per v1 hierarchy, and the v2 parent with the controllers it enables. */
const findParents = (): {
  v1: Map<Controller, string>;
  v2: { parent: string; controllers: Controller[] } | undefined;
} => {
  const mounts = readMounts();
  const v1 = new Map<Controller, string>();
  let v2: { parent: string; controllers: Controller[] } | undefined;
  for (const line of (readText('/proc/self/cgroup') ?? '').split('\n')) {
    const [, controllers, cgroupPath] = line.split(':');
    if (cgroupPath === undefined || controllers === undefined) continue;
    if (controllers === '') {
      const mount = mounts.find(each => each.fsType === 'cgroup2');
      if (mount === undefined) continue;
      const own = inside(mount, cgroupPath);
      const parent = cgroupPath === '/' ? own : path.dirname(own);
      const enabled = (readText(path.join(parent, 'cgroup.subtree_control')) ?? '').split(/\s+/);
      v2 = {
        parent,
        controllers: (['pids', 'memory'] as const).filter(name => enabled.includes(name)),
      };
      continue;
    }
    for (const name of ['pids', 'memory'] as const) {
      if (!controllers.split(',').includes(name)) continue;
      const mount = mounts.find(
        each => each.fsType === 'cgroup' && each.superOptions.includes(name),
      );
      if (mount !== undefined) v1.set(name, inside(mount, cgroupPath));
    }
  }
  return { v1, v2 };
};

const killAll = (dir: string): void => {
  if (existsSync(path.join(dir, 'cgroup.kill'))) {
    try {
      writeFileSync(path.join(dir, 'cgroup.kill'), '1');
      return;
    } catch {
      // Fall through to killing one by one.
    }
  }
  for (const pid of (readText(path.join(dir, 'cgroup.procs')) ?? '').split('\n')) {
    if (pid === '') continue;
    try {
      process.kill(Number(pid), 'SIGKILL');
    } catch {
      // Gone already.
    }
  }
};

const isAlive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as { code?: string }).code === 'EPERM';
  }
};

/** Killed processes take a moment to leave; a few tries, then a later sweep. */
const removeWhenEmpty = (dir: string, triesLeft: number): void => {
  try {
    rmdirSync(dir);
  } catch (error) {
    if ((error as { code?: string }).code !== 'EBUSY' || triesLeft <= 1) return;
    setTimeout(() => removeWhenEmpty(dir, triesLeft - 1), 50).unref();
  }
};

const swept = new Set<string>();

/** Removes cgroups left by workers that died before releasing theirs (once per parent). */
const sweep = (parent: string): void => {
  if (swept.has(parent)) return;
  swept.add(parent);
  let names: string[];
  try {
    names = readdirSync(parent).filter(name => name.startsWith(PREFIX));
  } catch {
    return;
  }
  for (const name of names) {
    const owner = Number(name.slice(PREFIX.length).split('-')[0]);
    if (owner === process.pid || isAlive(owner)) continue;
    killAll(path.join(parent, name));
    removeWhenEmpty(path.join(parent, name), 1);
  }
};

/** Makes a cgroup under `parent` with the limits of `controllers`; undefined when it cannot. */
const makeOne = (
  parent: string,
  version: 'v1' | 'v2',
  wanted: [Controller, string][],
): string | undefined => {
  sweep(parent);
  made += 1;
  const dir = path.join(parent, `${PREFIX}${process.pid}-${made}`);
  try {
    mkdirSync(dir);
  } catch {
    return undefined;
  }
  try {
    for (const [controller, value] of wanted) {
      const [required, ...optional] = LIMITS[controller][version];
      writeFileSync(path.join(dir, required), value);
      for (const file of optional) {
        try {
          // No swap beyond the bound: v1 counts memory+swap (same value), v2 counts swap alone (0).
          writeFileSync(path.join(dir, file), version === 'v2' ? '0' : value);
        } catch {
          // Swap accounting is off on this machine.
        }
      }
    }
    return dir;
  } catch {
    removeWhenEmpty(dir, 1);
    return undefined;
  }
};

export const makeCommandCgroups = (limits: {
  maxProcesses: number;
  memoryBytes: number;
}): CommandCgroups => {
  const values: Record<Controller, string> = {
    pids: String(limits.maxProcesses),
    memory: String(limits.memoryBytes),
  };
  const { v1, v2 } = findParents();
  const dirs: string[] = [];
  const bounded = new Set<Controller>();
  for (const [controller, parent] of v1) {
    const dir = makeOne(parent, 'v1', [[controller, values[controller]]]);
    if (dir === undefined) continue;
    dirs.push(dir);
    bounded.add(controller);
  }
  const missing = (v2?.controllers ?? []).filter(controller => !bounded.has(controller));
  if (v2 !== undefined && missing.length > 0) {
    const dir = makeOne(
      v2.parent,
      'v2',
      missing.map(controller => [controller, values[controller]]),
    );
    if (dir !== undefined) {
      dirs.push(dir);
      for (const controller of missing) bounded.add(controller);
    }
  }
  return {
    procsFiles: dirs.map(dir => path.join(dir, 'cgroup.procs')),
    pidsBounded: bounded.has('pids'),
    memoryBounded: bounded.has('memory'),
    release() {
      for (const dir of dirs) {
        killAll(dir);
        removeWhenEmpty(dir, 20);
      }
    },
  };
};
harden(makeCommandCgroups);
