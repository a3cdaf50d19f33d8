/**
 * `npm run bench`'s command line as a newcomer meets it (issue 45): `-- --help` prints its usage
 * (bench/usage.ts: what it measures, BENCH_ONLY's figures, BENCH_EXCHANGES) and runs nothing, as
 * `npm start -- --help` and the model double's do; a mistyped flag gets the nearest one
 * (sim/unknown-flag.ts). Before, any argument was ignored and minutes of figures began.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { BENCH_USAGE } from '../bench/usage.js';
import { CHILD_MS } from './support/patience.js';

const repoRoot = fileURLToPath(new URL('..', import.meta.url));

/** `npm run bench -- <args>` on the dist/ the test run built; stopped the moment a figure starts. */
const runBench = (args: string[]) =>
  new Promise<{ out: string; err: string; code: number | null }>((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [join(repoRoot, 'scripts', 'start.mjs'), '--program', 'bench/run.js', ...args],
      {
        cwd: repoRoot,
        env: { ...process.env, LAL_SIM_NO_BUILD: '1', BENCH_ONLY: 'schedules' },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString('utf8')));
    // A bench that measures instead of answering is stopped: what it printed fails the test.
    const started = setInterval(() => {
      if (/Figure|bench: /.test(out + err)) child.kill('SIGTERM');
    }, 50);
    const timer = setTimeout(() => child.kill('SIGKILL'), CHILD_MS);
    child.on('error', reject);
    child.on('close', code => {
      clearInterval(started);
      clearTimeout(timer);
      resolve({ out, err, code });
    });
  });

describe('npm run bench, answered before it measures', () => {
  it('prints its usage for --help (and -h), and runs no figure', async () => {
    const run = await runBench(['--help']);
    expect(run.err).toBe('');
    expect(run.out).toBe(`${BENCH_USAGE}\n`);
    expect(run.code).toBe(0);
    expect(BENCH_USAGE).toMatch(/^Usage: npm run bench/);
    expect(BENCH_USAGE).toMatch(/BENCH_ONLY=<figure>[^]*channels \(16\)[^]*BENCH_EXCHANGES=<n>/);
    expect((await runBench(['-h'])).out).toBe(`${BENCH_USAGE}\n`);
  });

  it('refuses a mistyped flag in one line with the nearest one, as npm start does', async () => {
    const run = await runBench(['--hepl']);
    expect(run.out).toBe('');
    expect(run.err).toBe('Unknown argument "--hepl"; did you mean --help? (--help lists them)\n');
    expect(run.code).toBe(2);
    const other = await runBench(['schedules']);
    expect(other.err).toBe('Unknown argument "schedules"; try --help\n');
  });
});
