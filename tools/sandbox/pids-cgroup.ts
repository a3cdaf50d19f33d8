/**
 * A pids cgroup of its own for one sandboxed command: the kernel refuses a
 * fork beyond `pids.max` whoever the process runs as. This matters because
 * the daemon often runs as root, and the kernel exempts root from
 * RLIMIT_NPROC (`ulimit -u`), inside bubblewrap too.
 *
 * One is made where the worker may write: under its own pids hierarchy
 * (cgroup v1), or beside its own cgroup where the parent delegates the pids
 * controller (cgroup v2). Where none is writable, `makePidsCgroup` returns
 * undefined and the caller decides.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, rmdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';

export interface PidsCgroup {
  /** The cgroup's folder; a process joins it by writing its pid to `cgroup.procs`. */
  dir: string;
  /** Kills what is left in it and removes it (best effort: a busy cgroup is left to the next sweep). */
  release(): void;
}

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
      return { root: fields[3] ?? '', mountPoint: fields[4] ?? '', fsType, superOptions: superOptions.split(',') };
    });

/** Where this process's cgroup is, for the hierarchy that holds pids (v1) or the unified one (v2). */
const candidateParents = (): string[] => {
  const mounts = readMounts();
  const parents: string[] = [];
  const inside = (mount: Mount, cgroupPath: string): string => {
    const relative = mount.root !== '/' && cgroupPath.startsWith(mount.root) ? cgroupPath.slice(mount.root.length) : cgroupPath;
    return path.join(mount.mountPoint, relative);
  };
  for (const line of (readText('/proc/self/cgroup') ?? '').split('\n')) {
    const [, controllers, cgroupPath] = line.split(':');
    if (cgroupPath === undefined || controllers === undefined) continue;
    if (controllers.split(',').includes('pids')) {
      const mount = mounts.find(each => each.fsType === 'cgroup' && each.superOptions.includes('pids'));
      if (mount !== undefined) parents.push(inside(mount, cgroupPath));
    } else if (controllers === '') {
      const mount = mounts.find(each => each.fsType === 'cgroup2');
      if (mount === undefined) continue;
      const own = inside(mount, cgroupPath);
      // v2 lets processes live only in leaves: a new cgroup goes beside ours
      // (or under the root), where the parent has pids enabled for its children.
      for (const parent of cgroupPath === '/' ? [own] : [path.dirname(own)]) {
        if ((readText(path.join(parent, 'cgroup.subtree_control')) ?? '').split(/\s+/).includes('pids')) {
          parents.push(parent);
        }
      }
    }
  }
  return parents;
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

/** Removes cgroups left by workers that died before releasing theirs. */
const sweep = (parent: string): void => {
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
    try {
      rmdirSync(path.join(parent, name));
    } catch {
      // Still busy; the next sweep tries again.
    }
  }
};

let swept = false;

/** Killed processes take a moment to leave; a few tries, then the next worker's sweep. */
const removeWhenEmpty = (dir: string, triesLeft: number): void => {
  try {
    rmdirSync(dir);
  } catch (error) {
    if ((error as { code?: string }).code !== 'EBUSY' || triesLeft <= 1) return;
    setTimeout(() => removeWhenEmpty(dir, triesLeft - 1), 50).unref();
  }
};

export const makePidsCgroup = (maxProcesses: number): PidsCgroup | undefined => {
  for (const parent of candidateParents()) {
    if (!swept) sweep(parent);
    made += 1;
    const dir = path.join(parent, `${PREFIX}${process.pid}-${made}`);
    try {
      mkdirSync(dir);
    } catch {
      continue;
    }
    try {
      writeFileSync(path.join(dir, 'pids.max'), String(maxProcesses));
    } catch {
      try {
        rmdirSync(dir);
      } catch {
        // Nothing to clean.
      }
      continue;
    }
    swept = true;
    return {
      dir,
      release() {
        killAll(dir);
        removeWhenEmpty(dir, 20);
      },
    };
  }
  swept = true;
  return undefined;
};
