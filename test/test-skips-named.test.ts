/**
 * `npm test`'s skipped tests are named, each with why (CONTRIBUTING, "Tests
 * that skip"): the closing summary lists every test a run skipped (a run
 * filtered by -t aside, where the others are skipped by the filter), and
 * each test that skips by where it runs (skipIf, runIf) says the condition in
 * its name, in a file CONTRIBUTING names.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { TestModule } from 'vitest/node';
import PlainSummaryReporter from './plain-summary-reporter.js';
import { moduleOf } from './support/reported-modules.js';
import { readRepoFile, repoRoot } from './support/repo-files.js';

const printed = (testNamePattern: RegExp | undefined, modules: TestModule[]) => {
  const written: string[] = [];
  vi.spyOn(process.stdout, 'write').mockImplementation(text => {
    written.push(String(text));
    return true;
  });
  const reporter = new PlainSummaryReporter();
  reporter.onInit({ config: { testNamePattern } } as never);
  reporter.onTestRunEnd(modules, []);
  vi.restoreAllMocks();
  return written.join('');
};

afterEach(() => {
  vi.restoreAllMocks();
});

describe('the summary of a run', () => {
  const modules = [
    moduleOf('test/a.test.ts', [
      ['files > reads one', 'passed'],
      ['files > one without read permission (runs only as a user other than root)', 'skipped'],
    ]),
    moduleOf('test/b.test.ts', [['sandbox > runs', 'skipped', 'bubblewrap was not found']]),
  ];

  it('names each skipped test after the counts, with its file and any note', () => {
    expect(printed(undefined, modules)).toBe(
      [
        '',
        '1 passed, 0 failed, 2 skipped',
        'skipped: test/a.test.ts > files > one without read permission (runs only as a user other than root)',
        'skipped: test/b.test.ts > sandbox > runs (bubblewrap was not found)',
        '',
      ].join('\n'),
    );
  });

  it('lists none in a run filtered by -t (the filter skips the others)', () => {
    expect(printed(/reads/, modules)).toBe('\n1 passed, 0 failed, 2 skipped\n');
  });
});

describe('tests that skip by where they run', () => {
  const files = readdirSync(join(repoRoot, 'test')).filter(name => name.endsWith('.test.ts'));
  const skipping = files.filter(name => /\.(?:skipIf|runIf)\(/.test(readRepoFile(`test/${name}`)));

  it('say why in their names, and CONTRIBUTING names their files', () => {
    expect(skipping.length).toBeGreaterThan(0);
    const contributing = readRepoFile('CONTRIBUTING.md');
    const section = contributing.slice(contributing.indexOf('### Tests that skip'));
    for (const name of skipping) {
      expect(section, `CONTRIBUTING's "Tests that skip" names test/${name}`).toContain(
        `test/${name}`,
      );
      const source = readRepoFile(`test/${name}`);
      for (const found of source.matchAll(/\.(?:skipIf|runIf)\(/g)) {
        // The name follows the condition: within a few lines it says when the test runs.
        const title = source.slice(found.index, found.index + 400);
        expect(title, `test/${name}: ${title.slice(0, 80)}`).toMatch(
          /runs only|skippedBecause\(|checked only/,
        );
      }
    }
  });
});
