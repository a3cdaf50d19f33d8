/**
 * `kill <pid of npm>` ends what npm started (issue 45). npm passes SIGTERM to
 * the shell that runs its script; a shell that does not exec its one command
 * dies and leaves scripts/start.mjs, and the program it started, running with
 * no one to stop them. Run through npm itself, as a person runs it.
 */
import { spawn } from 'node:child_process';
import { connect } from 'node:net';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { CHILD_MS, WAIT_MS } from './support/patience.js';

const repoRoot = fileURLToPath(new URL('..', import.meta.url));

/** Whether something accepts a connection on the port of 127.0.0.1. */
const listening = (port: number): Promise<boolean> =>
  new Promise(resolve => {
    const socket = connect({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });

describe('npm run model-double, killed', () => {
  it(
    'SIGTERM to npm stops the model double it started',
    async () => {
      // A process group of its own, so whatever is left can be cleaned up after.
      const npm = spawn('npm', ['run', '--silent', 'model-double', '--', '--port', '0'], {
        cwd: repoRoot,
        env: { ...process.env, LAL_SIM_NO_BUILD: '1' },
        stdio: ['ignore', 'pipe', 'pipe'],
        detached: true,
      });
      try {
        let stdout = '';
        const port = await new Promise<number>((resolve, reject) => {
          npm.once('error', reject);
          npm.stdout.on('data', (chunk: Buffer) => {
            stdout += chunk.toString('utf8');
            const match = /LAL_HOST=http:\/\/127\.0\.0\.1:(\d+)\/v1/.exec(stdout);
            if (match !== null) resolve(Number(match[1]));
          });
        });
        expect(await listening(port)).toBe(true);
        const npmGone = new Promise(resolve => npm.once('exit', resolve));
        npm.kill('SIGTERM');
        await npmGone;
        await expect.poll(() => listening(port), { timeout: WAIT_MS, interval: 200 }).toBe(false);
      } finally {
        try {
          // What the kill left behind, if anything.
          process.kill(-npm.pid!, 'SIGKILL');
        } catch {
          // Nothing left: the group is gone.
        }
      }
    },
    CHILD_MS,
  );
});
