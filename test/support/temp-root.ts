/**
 * vitest's global setup: every test process gets one temporary root of its own
 * (TMPDIR, so os.tmpdir() and child processes use it), and after the suite any
 * file or folder a test left there fails the run: each test removes what it makes.
 */
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

export default function setup(): () => void {
  const root = mkdtempSync(path.join(tmpdir(), 'lal-fae-test-'));
  process.env.TMPDIR = root;
  return () => {
    const left = readdirSync(root);
    rmSync(root, { recursive: true, force: true });
    if (left.length === 0) return;
    // A teardown that throws is only printed by vitest; the exit code is what CI reads.
    process.stderr.write(
      `\nTests left ${left.length} entr${left.length === 1 ? 'y' : 'ies'} in their temporary root: ${left.join(', ')}\n`,
    );
    process.exitCode = 1;
  };
}
