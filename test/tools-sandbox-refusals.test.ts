// runCommand refuses to run anything when the sandbox cannot be made, and
// says why in one line: a PATH whose bubblewrap is missing, not a file,
// without prlimit beside it, or a bubblewrap that fails when tried. Each case
// puts its own programs on PATH (stand-ins for bwrap; the real prlimit), so
// nothing here depends on what this machine allows. Settings the host gets
// wrong are refused when the tool is made, naming the variable.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { E } from '@endo/far';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import * as runCommand from '../tools/run-command.js';
import { checkSandbox } from '../tools/lib/sandbox/sandbox-check.js';
import { findSandboxPrograms } from '../tools/lib/sandbox/sandbox-plan.js';
import { findProgram } from '../tools/lib/sandbox/find-program.js';
import { makeTempDir, makeTool } from './tools-helpers.js';

let root: string;
let bin: string;
beforeEach(() => {
  root = makeTempDir('refusal-root');
  bin = makeTempDir('refusal-bin');
});
afterEach(() => {
  vi.unstubAllEnvs();
  rmSync(root, { recursive: true, force: true });
  rmSync(bin, { recursive: true, force: true });
});

/** An executable shell script named `name` in the test's PATH folder. */
function script(name: string, body: string): string {
  const file = path.join(bin, name);
  writeFileSync(file, `#!/bin/sh\n${body}\n`);
  chmodSync(file, 0o755);
  return file;
}
const realPrlimit = findProgram('prlimit', '/usr/bin:/bin:/usr/sbin:/sbin');

/** Runs `touch ran.txt` through E() with PATH set to `searchPath`; the command must not have run. */
async function refusedWith(searchPath: string): Promise<string> {
  vi.stubEnv('PATH', searchPath);
  const tool = makeTool(runCommand, { FAE_CWD: root });
  const error = await E(tool)
    .execute(harden({ command: 'touch ran.txt' }))
    .then(
      () => undefined,
      (reason: Error) => reason,
    );
  expect(error, 'the command ran without a sandbox').toBeInstanceOf(Error);
  expect(existsSync(path.join(root, 'ran.txt'))).toBe(false);
  const message = (error as Error).message;
  expect(message).not.toContain('\n');
  expect(message).toMatch(/^runCommand: no sandbox, so no command was run: /);
  return message;
}

describe('runCommand refuses when the sandbox cannot be made', () => {
  it('a bwrap without prlimit beside it: says to install util-linux', async () => {
    script('bwrap', 'exit 0');
    const message = await refusedWith(bin);
    expect(message).toContain('prlimit (util-linux) was not found on PATH: install util-linux');
    expect(message).toContain('FAE_RUN_COMMAND_UNSANDBOXED=1');
    expect(findSandboxPrograms(bin)).toBe(
      message.replace(/^runCommand: no sandbox, so no command was run: /, ''),
    );
    expect(await checkSandbox(bin)).toBe(findSandboxPrograms(bin));
    // No PATH at all: nothing is found, nothing crashes.
    expect(findProgram('sh', undefined)).toBeUndefined();
  });

  it('a folder named bwrap, a relative folder and an empty entry on PATH are not programs', async () => {
    mkdirSync(path.join(bin, 'bwrap'));
    const relative = path.relative(process.cwd(), path.join(makeTempDir('refusal-relative')));
    writeFileSync(path.join(relative, 'bwrap'), '#!/bin/sh\nexit 0\n', { mode: 0o755 });
    try {
      expect(findProgram('bwrap', `${bin}::${relative}`)).toBeUndefined();
      expect(await refusedWith(`${bin}::${relative}`)).toContain(
        'bubblewrap (bwrap) was not found on PATH',
      );
    } finally {
      rmSync(relative, { recursive: true, force: true });
    }
  });

  it('a bubblewrap that fails when tried: its first line of complaint is the reason', async () => {
    expect(realPrlimit).toBeDefined();
    symlinkSync(realPrlimit!, path.join(bin, 'prlimit'));
    script(
      'bwrap',
      'echo "bwrap: No permissions to create new namespace" >&2\necho "second line" >&2\nexit 1',
    );
    const message = await refusedWith(bin);
    expect(message).toContain(
      'bubblewrap is installed but cannot make a sandbox here (bwrap: No permissions to create new namespace)',
    );
    expect(message).not.toContain('second line');
  });

  it('a bubblewrap that fails silently: the exit code is the reason', async () => {
    symlinkSync(realPrlimit!, path.join(bin, 'prlimit'));
    script('bwrap', 'exit 3');
    expect(await checkSandbox(bin)).toBe(
      'bubblewrap is installed but cannot make a sandbox here (exit code 3)',
    );
    expect(await refusedWith(bin)).toContain('(exit code 3)');
  });

  it('the check runs /bin/true through prlimit and bwrap: a stand-in that runs what it is given passes', async () => {
    symlinkSync(realPrlimit!, path.join(bin, 'prlimit'));
    const seen = path.join(bin, 'seen.txt');
    // Records its last argument (the program the check runs inside) and succeeds.
    script('bwrap', `for last in "$@"; do :; done; echo "$last" > '${seen}'; exit 0`);
    expect(await checkSandbox(bin)).toBeUndefined();
    expect(existsSync(seen)).toBe(true);
    expect(readFileSync(seen, 'utf8')).toBe('/bin/true\n');
  });
});

describe('sandbox settings the host gets wrong are refused when the tool is made', () => {
  it.each([
    ['FAE_SANDBOX_MAX_PROCESSES', '0'],
    ['FAE_SANDBOX_MAX_PROCESSES', 'lots'],
    ['FAE_SANDBOX_MEMORY_MB', '1.5'],
    ['FAE_SANDBOX_CPU_SECONDS', '-1'],
    ['FAE_SANDBOX_FILE_MB', '1e400'],
  ])('%s=%s', (name, value) => {
    expect(() => makeTool(runCommand, { FAE_CWD: root, [name]: value })).toThrow(
      `runCommand: ${name} must be a whole number of at least 1, got ${JSON.stringify(value)}`,
    );
  });

  it('FAE_SANDBOX_ALLOW_NETWORK must be a flag', () => {
    expect(() =>
      makeTool(runCommand, { FAE_CWD: root, FAE_SANDBOX_ALLOW_NETWORK: 'sometimes' }),
    ).toThrow(/FAE_SANDBOX_ALLOW_NETWORK must be 1 or 0, got "sometimes"/);
  });
});
