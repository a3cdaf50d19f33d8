/**
 * `npm run model-double`'s command line as a newcomer meets it (issue 45): a
 * port Node's fetch blocks is refused at once, with the sentence `npm start`
 * would give later (providers/bad-port.ts: the same rule, from the same
 * fetch), and a mistyped flag gets the nearest one, as `npm start`'s do.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { CHILD_MS } from './support/patience.js';

const repoRoot = fileURLToPath(new URL('..', import.meta.url));

/** `npm run model-double -- <args>` to its end: it must refuse, so it never listens for long. */
const runDouble = (args: string[]) =>
  new Promise<{ out: string; err: string; code: number | null }>((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [join(repoRoot, 'scripts', 'start.mjs'), '--program', 'sim/model-server/main.js', ...args],
      {
        cwd: repoRoot,
        env: { ...process.env, LAL_SIM_NO_BUILD: '1' },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString('utf8');
      // A double that listens instead of refusing is stopped: what it printed fails the test.
      if (out.includes('Ctrl-C stops it')) child.kill('SIGTERM');
    });
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString('utf8')));
    const timer = setTimeout(() => child.kill('SIGKILL'), CHILD_MS);
    child.on('error', reject);
    child.on('close', code => {
      clearTimeout(timer);
      resolve({ out, err, code });
    });
  });

describe('npm run model-double, refused before it listens', () => {
  it("refuses a port fetch blocks (6000, X11's) in one line, as npm start would", async () => {
    const run = await runDouble(['--port', '6000']);
    expect(run.out).toBe('');
    expect(run.code).toBe(2);
    expect(run.err).toBe(
      'Node refuses to use port 6000 (for openai): its fetch blocks the port (a "bad port" of the Fetch standard, kept for other services), so no agent could reach the double there — choose another --port.\n',
    );
  });

  it('names the blocked port among those it takes (n+1 for Anthropic)', async () => {
    const run = await runDouble(['--port', '5999']);
    expect(run.code).toBe(2);
    expect(run.err).toMatch(/^Node refuses to use port 6000 \(for anthropic, --port 5999 \+ 1\): /);
    // One protocol alone on the port given: 5999 is not blocked, so only 6000 with --protocol is.
    const alone = await runDouble(['--port', '6000', '--protocol', 'ollama']);
    expect(alone.err).toMatch(/^Node refuses to use port 6000 \(for ollama\): /);
  });

  it('offers the nearest flag for a mistyped one, as npm start does', async () => {
    const run = await runDouble(['--prot', 'openai']);
    expect(run.code).toBe(2);
    // The flag it begins, before --port a swap away.
    expect(run.err).toBe(
      'Unknown argument "--prot"; did you mean --protocol? (--help lists them)\n',
    );
    const other = await runDouble(['--prt', '6001']);
    expect(other.err).toBe('Unknown argument "--prt"; did you mean --port? (--help lists them)\n');
  });
});
