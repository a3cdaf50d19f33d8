/**
 * How one command is started inside bubblewrap: the system read-only, only
 * the tool root writable (at SANDBOX_ROOT inside), a private /tmp, no
 * network, its own PID, IPC and UTS namespaces, a new session, no
 * capabilities, and limits on processes, memory, CPU time and file size.
 * The host's home, /root, /home and the rest of /etc are simply not there.
 *
 * Processes: a pids cgroup where one is writable (see command-cgroups.ts);
 * else, for a worker that is not root, RLIMIT_NPROC (the kernel counts it per
 * user, so it is set to what the user runs now plus the allowance); a root
 * worker without a writable pids cgroup has no process bound and gets no
 * sandbox. Memory: RLIMIT_AS per process, and a memory cgroup for the whole
 * command where one is writable.
 */
import { lstatSync, readdirSync, readlinkSync, statSync } from 'node:fs';
import { findProgram } from './find-program.js';
import { makeCommandCgroups, type CommandCgroups } from './command-cgroups.js';
import type { SandboxSettings } from './sandbox-settings.js';

/** Where the tool root is inside the sandbox, whatever its path outside. */
export const SANDBOX_ROOT = '/work';
harden(SANDBOX_ROOT);
/** HOME inside: the sandbox's own /tmp, gone when the command ends. */
export const SANDBOX_HOME = '/tmp';
harden(SANDBOX_HOME);
export const SANDBOX_PATH = '/usr/local/bin:/usr/bin:/bin:/usr/local/sbin:/usr/sbin:/sbin';
harden(SANDBOX_PATH);

export const INSTALL_HINT =
  'install bubblewrap (Debian/Ubuntu: apt-get install bubblewrap; Fedora: dnf install bubblewrap)';
harden(INSTALL_HINT);
const OPT_OUT_HINT =
  'or set FAE_RUN_COMMAND_UNSANDBOXED=1 on run-command-tool to run commands unconfined';
harden(OPT_OUT_HINT);

/** What programs need to start, from /etc; nothing else of it is visible. */
const ETC_ENTRIES = [
  'ld.so.cache',
  'ld.so.conf',
  'ld.so.conf.d',
  'alternatives',
  'passwd',
  'group',
  'nsswitch.conf',
  'localtime',
  'timezone',
  'mime.types',
];
/** Only with FAE_SANDBOX_ALLOW_NETWORK: name resolution and certificates. */
const ETC_NETWORK_ENTRIES = [
  'resolv.conf',
  'hosts',
  'host.conf',
  'gai.conf',
  'ssl',
  'ca-certificates',
  'ca-certificates.conf',
];
/** Top-level folders that are (on merged-/usr systems, symlinks into) the system. */
const SYSTEM_TOP = ['bin', 'sbin', 'lib', 'lib32', 'lib64', 'libx32'];

const systemBinds = (): string[] => {
  const args = ['--ro-bind', '/usr', '/usr'];
  for (const name of SYSTEM_TOP) {
    const where = `/${name}`;
    try {
      if (lstatSync(where).isSymbolicLink()) args.push('--symlink', readlinkSync(where), where);
      else if (statSync(where).isDirectory()) args.push('--ro-bind', where, where);
    } catch {
      // Not on this system.
    }
  }
  return args;
};

const etcBinds = (names: readonly string[]): string[] =>
  names.flatMap(name => ['--ro-bind-try', `/etc/${name}`, `/etc/${name}`]);

/** Where a sandboxed program sees things: the root's place inside, and folders it may only read. */
export interface SandboxView {
  /** The root's path inside (SANDBOX_ROOT unless said): an MCP server sees its folder at its own path. */
  rootAt?: string;
  /** Absolute paths bound read-only at the same path (a program's own files outside the system). */
  readOnly?: readonly string[];
}

export const bubblewrapArgs = (
  root: string,
  settings: SandboxSettings,
  view: SandboxView = {},
): string[] => [
  '--unshare-all',
  ...(settings.allowNetwork ? ['--share-net'] : []),
  '--die-with-parent',
  '--new-session',
  '--cap-drop',
  'ALL',
  ...systemBinds(),
  ...etcBinds(settings.allowNetwork ? [...ETC_ENTRIES, ...ETC_NETWORK_ENTRIES] : ETC_ENTRIES),
  '--proc',
  '/proc',
  '--dev',
  '/dev',
  '--tmpfs',
  '/tmp',
  ...(view.readOnly ?? []).flatMap(place => ['--ro-bind', place, place]),
  '--bind',
  root,
  view.rootAt ?? SANDBOX_ROOT,
  '--chdir',
  view.rootAt ?? SANDBOX_ROOT,
  '--hostname',
  'sandbox',
];
harden(bubblewrapArgs);

/** The processes a user runs now (RLIMIT_NPROC counts them all). */
const processesOf = (uid: number): number => {
  let count = 0;
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      if (statSync(`/proc/${name}`).uid === uid) count += 1;
    } catch {
      // Exited meanwhile.
    }
  }
  return count;
};

export interface SandboxPlan {
  file: string;
  argv: string[];
  /** Called once the command has ended or been killed. */
  release(): void;
}

export type SandboxProgram = { file: string; argv: string[]; view?: SandboxView };

/**
 * The programs a sandboxed run needs, looked up on `searchPath`; a one-line
 * refusal when one is missing.
 */
export const findSandboxPrograms = (
  searchPath: string | undefined,
): { bwrap: string; prlimit: string } | string => {
  const bwrap = findProgram('bwrap', searchPath);
  if (bwrap === undefined)
    return `bubblewrap (bwrap) was not found on PATH: ${INSTALL_HINT}, ${OPT_OUT_HINT}`;
  const prlimit = findProgram('prlimit', searchPath);
  if (prlimit === undefined)
    return `prlimit (util-linux) was not found on PATH: install util-linux, ${OPT_OUT_HINT}`;
  return { bwrap, prlimit };
};
harden(findSandboxPrograms);

/** What the plan depends on in the worker: who it runs as and the cgroups it could make (given by tests). */
export interface SandboxHost {
  uid: number;
  makeCgroups(settings: SandboxSettings): CommandCgroups;
}

const thisWorker = (): SandboxHost => ({
  uid: process.getuid?.() ?? 0,
  makeCgroups: makeCommandCgroups,
});

/**
 * Wraps `command` for the sandbox. Returns a refusal (one line) when the
 * number of processes cannot be bounded.
 */
export const planSandboxedRun = (
  programs: { bwrap: string; prlimit: string },
  root: string,
  settings: SandboxSettings,
  command: SandboxProgram,
  host: SandboxHost = thisWorker(),
): SandboxPlan | string => {
  const limits = [
    `--as=${settings.memoryBytes}`,
    `--cpu=${settings.cpuSeconds}`,
    `--fsize=${settings.fileBytes}`,
    '--core=0',
  ];
  const sandboxed = [
    ...bubblewrapArgs(root, settings, command.view),
    '--',
    command.file,
    ...command.argv,
  ];
  const cgroups = host.makeCgroups(settings);
  const { uid } = host;
  if (cgroups.procsFiles.length > 0 && (cgroups.pidsBounded || uid !== 0)) {
    // The shell joins the cgroups, then becomes prlimit, which becomes bwrap: nothing forks before the bounds hold.
    const join = cgroups.procsFiles.map((_, index) => `echo $$ > "$${index}"`).join(' && ');
    const shift = cgroups.procsFiles.length > 1 ? ` && shift ${cgroups.procsFiles.length - 1}` : '';
    const nproc = cgroups.pidsBounded
      ? []
      : [`--nproc=${processesOf(uid) + settings.maxProcesses}`];
    return {
      file: '/bin/sh',
      argv: [
        '-c',
        `${join}${shift} && exec "$@"`,
        ...cgroups.procsFiles,
        programs.prlimit,
        ...limits,
        ...nproc,
        programs.bwrap,
        ...sandboxed,
      ],
      release: () => cgroups.release(),
    };
  }
  cgroups.release();
  if (uid === 0) {
    return `running as root with no writable pids cgroup, the sandbox cannot bound the number of processes (the kernel exempts root from RLIMIT_NPROC); run the daemon as another user or give it a pids cgroup, ${OPT_OUT_HINT}`;
  }
  return {
    file: programs.prlimit,
    argv: [
      ...limits,
      `--nproc=${processesOf(uid) + settings.maxProcesses}`,
      programs.bwrap,
      ...sandboxed,
    ],
    release: () => {},
  };
};
harden(planSandboxedRun);
