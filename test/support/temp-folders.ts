/**
 * Temporary folders a test file makes, all removed after its tests: call
 * `useTempFolders()` at the top of a file or describe block, then `make(label)`.
 * They live under the run's private TMPDIR (test/support/temp-root.ts), which
 * fails the run if anything is left there.
 */
import { afterAll } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

export const useTempFolders = (): ((label: string) => string) => {
  const made: string[] = [];
  afterAll(() => {
    for (const folder of made.splice(0)) rmSync(folder, { recursive: true, force: true });
  });
  return label => {
    const folder = mkdtempSync(path.join(tmpdir(), `lal-fae-${label}-`));
    made.push(folder);
    return folder;
  };
};
