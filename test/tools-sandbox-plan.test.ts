// How the sandbox bounds the number of processes, for each kind of worker:
// root is exempt from RLIMIT_NPROC, so a root worker gets a sandbox only with
// a pids cgroup; another user is bounded by RLIMIT_NPROC (what it runs now
// plus the allowance) where no pids cgroup can be made. The worker's uid and
// cgroups are given here, so every case is checked on any machine; the
// plans that can run here are run.
import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import type { CommandCgroups } from '../tools/lib/sandbox/command-cgroups.js';
import { checkSandbox } from '../tools/lib/sandbox/sandbox-check.js';
import {
  findSandboxPrograms,
  planSandboxedRun,
  type SandboxPlan,
} from '../tools/lib/sandbox/sandbox-plan.js';
import { readSandboxSettings } from '../tools/lib/sandbox/sandbox-settings.js';
import { makeTempDir } from './tools-helpers.js';
import { skippedBecause } from './support/skipped-because.js';

const programs = { bwrap: '/usr/bin/bwrap', prlimit: '/usr/bin/prlimit' };
const settings = readSandboxSettings({ FAE_SANDBOX_MAX_PROCESSES: '16' }, 'test');
/** A uid no process on this machine runs as. */
const NOBODY_RUNNING = 4242;
const echo = { file: '/bin/echo', argv: ['hi'] };

function fakeCgroups(
  procsFiles: string[],
  pidsBounded: boolean,
): CommandCgroups & { released: number } {
  const cgroups = {
    procsFiles,
    pidsBounded,
    memoryBounded: procsFiles.length > 0,
    released: 0,
    release: () => {
      cgroups.released += 1;
    },
  };
  return cgroups;
}
function plan(uid: number, cgroups: CommandCgroups, root = '/tmp'): SandboxPlan | string {
  return planSandboxedRun(programs, root, settings, echo, { uid, makeCgroups: () => cgroups });
}
const asPlan = (made: SandboxPlan | string): SandboxPlan => {
  expect(typeof made, String(made)).toBe('object');
  return made as SandboxPlan;
};

describe('bounding the number of processes', () => {
  it('root with no pids cgroup (none at all, or memory only) gets no sandbox, and the cgroups made are released', () => {
    for (const cgroups of [
      fakeCgroups([], false),
      fakeCgroups(['/cg/memory/x/cgroup.procs'], false),
    ]) {
      const made = plan(0, cgroups);
      expect(made).toMatch(
        /^running as root with no writable pids cgroup, the sandbox cannot bound the number of processes .*FAE_RUN_COMMAND_UNSANDBOXED=1/,
      );
      expect(cgroups.released).toBe(1);
    }
  });

  it('another user with no cgroups: prlimit bounds processes at what the user runs plus the allowance', () => {
    const made = asPlan(plan(NOBODY_RUNNING, fakeCgroups([], false)));
    expect(made.file).toBe(programs.prlimit);
    const bwrapAt = made.argv.indexOf(programs.bwrap);
    expect(made.argv.slice(0, bwrapAt)).toEqual([
      `--as=${settings.memoryBytes}`,
      `--cpu=${settings.cpuSeconds}`,
      `--fsize=${settings.fileBytes}`,
      '--core=0',
      '--nproc=16',
    ]);
    expect(made.argv.slice(-3)).toEqual(['--', '/bin/echo', 'hi']);
  });

  it('another user with a memory cgroup only: joins it first, and still bounds processes by RLIMIT_NPROC', () => {
    const made = asPlan(plan(NOBODY_RUNNING, fakeCgroups(['/cg/memory/x/cgroup.procs'], false)));
    expect(made.file).toBe('/bin/sh');
    expect(made.argv.slice(0, 4)).toEqual([
      '-c',
      'echo $$ > "$0" && exec "$@"',
      '/cg/memory/x/cgroup.procs',
      programs.prlimit,
    ]);
    expect(made.argv).toContain('--nproc=16');
  });

  it('with a pids cgroup (and a memory one), the shell joins both and no RLIMIT_NPROC is needed; release frees them', () => {
    const cgroups = fakeCgroups(['/cg/pids/x/cgroup.procs', '/cg/memory/x/cgroup.procs'], true);
    const made = asPlan(plan(0, cgroups));
    expect(made.argv.slice(0, 5)).toEqual([
      '-c',
      'echo $$ > "$0" && echo $$ > "$1" && shift 1 && exec "$@"',
      '/cg/pids/x/cgroup.procs',
      '/cg/memory/x/cgroup.procs',
      programs.prlimit,
    ]);
    expect(made.argv.some(arg => arg.startsWith('--nproc'))).toBe(false);
    expect(cgroups.released).toBe(0);
    made.release();
    expect(cgroups.released).toBe(1);
  });
});

const problem = await checkSandbox();
describe.skipIf(problem !== undefined)(
  `the prlimit-only plan runs here${skippedBecause(problem)}`,
  () => {
    it('as a command line that works: the command runs inside at /work', () => {
      const found = findSandboxPrograms(process.env.PATH);
      expect(typeof found).toBe('object');
      const root = makeTempDir('plan-root');
      const made = asPlan(
        planSandboxedRun(
          found as { bwrap: string; prlimit: string },
          root,
          settings,
          { file: '/bin/sh', argv: ['-c', 'pwd'] },
          {
            uid: NOBODY_RUNNING,
            makeCgroups: () => fakeCgroups([], false),
          },
        ),
      );
      const ran = spawnSync(made.file, made.argv, { encoding: 'utf8' });
      rmSync(root, { recursive: true, force: true });
      expect(ran.stderr).toBe('');
      expect(ran.stdout).toBe('/work\n');
    });
  },
);
