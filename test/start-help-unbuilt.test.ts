/**
 * `npm start -- --help` on a fresh clone (issue 45; docs/configuration.md,
 * LAL_SIM_NO_BUILD: "never for --help"): the usage comes at once, with no
 * build, from the program's own usage module (sim/chat/usage.ts), and the
 * same for `npm run model-double -- --help` and `npm run bench -- --help`. The clone is a copy of the
 * sources with no dist/, in a folder of the test's own.
 */
import { spawn } from 'node:child_process';
import { cpSync, existsSync, readFileSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { USAGE } from '../sim/chat/usage.js';
import { DOUBLE_USAGE } from '../sim/model-server/usage.js';
import { BENCH_USAGE } from '../bench/usage.js';
import { CHILD_MS } from './support/patience.js';
import { useTempFolders } from './support/temp-folders.js';

const makeTempFolder = useTempFolders();
const repoRoot = fileURLToPath(new URL('..', import.meta.url));

/** The sources a clone has (what tsconfig.json compiles, the scripts), without dist/. */
const freshClone = (): string => {
  const clone = makeTempFolder('clone');
  const { include } = JSON.parse(readFileSync(join(repoRoot, 'tsconfig.json'), 'utf8')) as {
    include: string[];
  };
  const roots = include.map(pattern => pattern.replace(/\/\*\*\/\*\.ts$/, ''));
  for (const name of [...roots, 'scripts', 'package.json', 'tsconfig.json'])
    cpSync(join(repoRoot, name), join(clone, name), { recursive: true });
  symlinkSync(join(repoRoot, 'node_modules'), join(clone, 'node_modules'));
  return clone;
};

/** `node scripts/start.mjs <args>` in the clone; stopped at once if it starts building. */
const run = (clone: string, args: string[]) =>
  new Promise<{ out: string; err: string; code: number | null }>((resolve, reject) => {
    const { LAL_SIM_NO_BUILD: _skip, ...env } = process.env;
    const child = spawn(process.execPath, [join(clone, 'scripts', 'start.mjs'), ...args], {
      cwd: clone,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => {
      err += chunk.toString('utf8');
      if (err.includes('build')) child.kill('SIGTERM');
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), CHILD_MS);
    child.on('error', reject);
    child.on('close', code => {
      clearTimeout(timer);
      resolve({ out, err, code });
    });
  });

describe('--help on a fresh clone', () => {
  it('prints the usage at once, without building', async () => {
    const clone = freshClone();
    const start = await run(clone, ['--help']);
    expect(start.err).toBe('');
    expect(start.out).toBe(`${USAGE}\n`);
    expect(start.code).toBe(0);
    const double = await run(clone, ['--program', 'sim/model-server/main.js', '--help']);
    expect(double.err).toBe('');
    expect(double.out).toBe(`${DOUBLE_USAGE}\n`);
    const bench = await run(clone, ['--program', 'bench/run.js', '--help']);
    expect(bench.err).toBe('');
    expect(bench.out).toBe(`${BENCH_USAGE}\n`);
    expect(existsSync(join(clone, 'dist'))).toBe(false);
  });
});
