// Every LAL_/FAE_ variable the code reads (process.env.X, env.X, env['X'], or a reader given
// (env, 'X')) is in setup/known-settings.ts, so docs/configuration.md has a row for it
// (test/docs-configuration.test.ts) and a misspelling is named: LAL_MUTATION_REPORT and
// LAL_MUTATION_INCREMENTAL were read by stryker.config.mjs and in neither.
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { KNOWN_SETTINGS } from '../setup/known-settings.js';
import { readRepoFile, repoRoot } from './support/repo-files.js';

const SOURCES = [
  'agent.ts',
  'agent-manager.ts',
  'setup.ts',
  'setup-tools.ts',
  'stryker.config.mjs',
  'vitest.mutation.config.ts',
  'setup',
  'src',
  'providers',
  'tools',
  'sim',
  'bench',
  'conformance',
  'scripts',
];

const filesUnder = (path: string): string[] =>
  statSync(join(repoRoot, path)).isDirectory()
    ? readdirSync(join(repoRoot, path)).flatMap(name => filesUnder(join(path, name)))
    : /\.(?:ts|mjs)$/.test(path)
      ? [path]
      : [];

const READ = /(?:env\??\.|env\[['"]|\(\s*env,\s*['"])((?:LAL|FAE)_[A-Z0-9_]+)/g;

describe('the settings the code reads', () => {
  it('are each a known setting, with a row in docs/configuration.md', () => {
    const read = new Map<string, string>();
    for (const file of SOURCES.flatMap(filesUnder))
      for (const [, name] of readRepoFile(file).matchAll(READ)) read.set(name!, file);
    expect(read.get('LAL_HOST')).toBeDefined();
    expect(read.get('LAL_MUTATION_REPORT')).toBe('stryker.config.mjs');
    const unknown = [...read].filter(([name]) => !KNOWN_SETTINGS.includes(name));
    expect(unknown).toEqual([]);
  });
});
