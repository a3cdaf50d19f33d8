/**
 * CONTRIBUTING's commands to run one test file, or the tests of it whose
 * name matches (`-t`), do what they say: the file is there and the pattern
 * selects at least one of its tests (vitest skips them all, and exits 0,
 * when it selects none).
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readRepoFile, repoRoot } from './support/repo-files.js';

const RUN_ONE = /npx vitest run (test\/[\w.-]+\.test\.ts)(?: -t '([^']+)')?/g;

/** The titles of a test file's tests and groups, as written in their first argument. */
const titlesOf = (source: string): string[] =>
  [...source.matchAll(/\b(?:it|test|describe)\(\s*(['"`])((?:\\.|(?!\1).)*)\1/g)].map(
    match => match[2] ?? '',
  );

describe("CONTRIBUTING's one-test commands", () => {
  const commands = [...readRepoFile('CONTRIBUTING.md').matchAll(RUN_ONE)];

  it('are there, one with -t', () => {
    expect(commands.length).toBeGreaterThan(0);
    expect(commands.some(([, , pattern]) => pattern !== undefined)).toBe(true);
  });

  it('name files that exist and patterns that select one of their tests', () => {
    for (const [, file, pattern] of commands) {
      expect(existsSync(join(repoRoot, file!)), file).toBe(true);
      if (pattern === undefined) continue;
      const titles = titlesOf(readRepoFile(file!));
      expect(
        titles.some(title => new RegExp(pattern).test(title)),
        `${file} -t '${pattern}'`,
      ).toBe(true);
    }
  });
});
