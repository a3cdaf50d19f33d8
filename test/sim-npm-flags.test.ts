/**
 * A flag given to npm instead of the program (issue 45): `npm start --demo`,
 * without `--`, never reaches the simulator. npm keeps it as its own setting
 * (npm_config_demo=true in the program's environment) and passes on a flag's
 * value alone (`npm start --persona fae` gives the program just "fae"). The
 * program says so in one line, with the command that works, before anything
 * else (no model server is asked). The children get the environment npm gives
 * them, as `npm start --demo` would.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { makeSimRunner, type Run } from './support/run-sim.js';
import { useTempFolders } from './support/temp-folders.js';
import { CHILD_MS } from './support/patience.js';

const makeTempFolder = useTempFolders();
const runSim = makeSimRunner(makeTempFolder);
const repoRoot = fileURLToPath(new URL('..', import.meta.url));

/** What npm puts in the environment of `npm start` (its script's name). */
const npmStart = { npm_lifecycle_event: 'start', npm_config_yes: '' };

const refused = async (args: string[], env: Record<string, string>) => {
  const run = await runSim(args, { ...npmStart, LAL_HOST: 'http://127.0.0.1:9', ...env }, input =>
    input.end(),
  );
  expect(run.stdout).toBe('');
  expect(run.code).toBe(2);
  const lines = run.stderr.trim().split('\n');
  expect(lines).toHaveLength(1);
  return lines[0];
};

describe('a flag npm took for itself (npm start without --)', () => {
  it('npm start --demo: says npm took --demo, not that no model server answers', async () => {
    expect(await refused([], { npm_config_demo: 'true' })).toBe(
      "npm took --demo for itself: put -- before the simulator's flags: npm start -- --demo",
    );
  });

  it('npm start --persona fae: names --persona, which npm took, not "fae" as unknown', async () => {
    expect(await refused(['fae'], { npm_config_persona: 'true' })).toBe(
      'npm took --persona for itself and passed on "fae" alone: put -- before the simulator\'s flags: npm start -- --persona fae',
    );
  });

  it('npm start --persona=fae --fresh -- --demo: each flag npm took, and the ones it passed on', async () => {
    expect(await refused(['--demo'], { npm_config_persona: 'fae', npm_config_fresh: 'true' })).toBe(
      "npm took --persona=fae and --fresh for itself: put -- before the simulator's flags: npm start -- --persona=fae --fresh --demo",
    );
  });

  it("npm's own empty settings, or another script's, are not the simulator's flags", async () => {
    // npm test runs the simulator with npm_config_yes="" (and a script of its own): no flag taken.
    const run = await runSim(
      ['--help'],
      { npm_lifecycle_event: 'test', npm_config_demo: 'true', npm_config_yes: '' },
      input => input.end(),
    );
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^Usage: npm start --/);
  });
});

/** `npm run model-double`, with the environment npm gives it. */
const runDouble = (args: string[], env: Record<string, string>): Promise<Run> =>
  new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [join(repoRoot, 'scripts', 'start.mjs'), '--program', 'sim/model-server/main.js', ...args],
      {
        env: { ...process.env, LAL_SIM_NO_BUILD: '1', npm_lifecycle_event: 'model-double', ...env },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    const timer = setTimeout(() => child.kill('SIGKILL'), CHILD_MS);
    child.on('error', reject);
    child.on('close', code => {
      clearTimeout(timer);
      resolve({ stdout, stderr, code });
    });
  });

describe('npm run model-double --port 9000', () => {
  it('names --port, which npm took, and serves nothing', async () => {
    const run = await runDouble(['9000'], { npm_config_port: 'true' });
    expect(run.stdout).toBe('');
    expect(run.code).toBe(2);
    expect(run.stderr.trim()).toBe(
      'npm took --port for itself and passed on "9000" alone: put -- before the model double\'s flags: npm run model-double -- --port 9000',
    );
  });
});
