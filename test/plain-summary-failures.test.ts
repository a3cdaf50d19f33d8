/**
 * The closing line of `npm test` (`N passed, N failed, N skipped`, which CI reads; CONTRIBUTING,
 * "Tests that skip") counts every failure: a failed test, and a file or suite that failed on its
 * own — it did not load (a fresh clone without `dist/`), or a hook threw and its tests were never
 * run — whatever number of tests it holds (issue 45, trial 13 S2). A file that failed for want of
 * a built module says to build first (CONTRIBUTING, "One test file, without the whole build").
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { TestModule } from 'vitest/node';
import PlainSummaryReporter from './plain-summary-reporter.js';
import { moduleOf } from './support/reported-modules.js';
import { useTempFolders } from './support/temp-folders.js';

const makeTempFolder = useTempFolders();

/** A repository root with `dist/` built (the hint about building is then only for a missing module). */
const builtRoot = () => {
  const root = makeTempFolder('built');
  mkdirSync(join(root, 'dist'));
  return root;
};

const printed = (modules: TestModule[], root = builtRoot(), unhandled: unknown[] = []) => {
  const written: string[] = [];
  vi.spyOn(process.stdout, 'write').mockImplementation(text => {
    written.push(String(text));
    return true;
  });
  const reporter = new PlainSummaryReporter();
  reporter.onInit({ config: { testNamePattern: undefined, root } } as never);
  reporter.onTestRunEnd(modules, unhandled);
  vi.restoreAllMocks();
  return written.join('');
};

/** The counts line alone. */
const counts = (modules: TestModule[], root?: string) => printed(modules, root).split('\n')[1];

afterEach(() => {
  vi.restoreAllMocks();
});

const missing = (root: string) => ({
  message: `child exited 1: expected 1 to be +0 // Object.is equality\nnode:internal/modules/esm/resolve:275\nError [ERR_MODULE_NOT_FOUND]: Cannot find module '${root}/dist/setup/read-setup-env.js' imported from ${root}/[eval1]`,
});

describe('the closing counts, for files and suites that failed on their own', () => {
  it('a file whose top-level hook threw counts as failed, beside its tests that never ran', () => {
    const file = moduleOf('test/hooked.test.ts', {
      tests: [
        ['names the setting', 'skipped'],
        ['quotes the value', 'skipped'],
        ['never the secret', 'skipped'],
        ['under lockdown', 'skipped'],
      ],
      errors: [{ message: 'expected 1 to be +0' }],
    });
    expect(counts([file])).toBe('0 passed, 1 failed, 4 skipped');
  });

  it('a file that did not load counts as failed, with or without tests', () => {
    const empty = moduleOf('test/unloaded.test.ts', {
      tests: [],
      errors: [{ message: 'SyntaxError' }],
    });
    expect(counts([empty])).toBe('0 passed, 1 failed, 0 skipped');
  });

  it("a suite whose hook threw counts once, beside the file's tests that passed", () => {
    const file = moduleOf('test/suite-hook.test.ts', {
      tests: [
        ['inside > a', 'skipped'],
        ['outside', 'passed'],
      ],
      suites: [[{ message: 'hook' }], []],
    });
    expect(counts([file])).toBe('1 passed, 1 failed, 1 skipped');
  });

  it('an afterAll that threw after its tests passed is a failure too', () => {
    const file = moduleOf('test/after.test.ts', {
      tests: [['a', 'passed']],
      errors: [{ message: 'after' }],
    });
    expect(counts([file])).toBe('1 passed, 1 failed, 0 skipped');
  });

  it('a failed test is counted once: its suite and file fail by it, not on their own', () => {
    const file = moduleOf('test/plain.test.ts', {
      tests: [
        ['d > fails', 'failed', undefined, [{ message: 'expected 1 to be +0' }]],
        ['d > ok', 'passed'],
      ],
      suites: [[]],
    });
    expect(counts([file])).toBe('1 passed, 1 failed, 0 skipped');
  });
});

describe('a file that failed for want of built code', () => {
  it('says which built module is missing and to run npm run build first', () => {
    const root = builtRoot();
    const file = moduleOf('test/errors-under-lockdown.test.ts', {
      tests: [['a', 'skipped']],
      errors: [missing(root)],
    });
    expect(printed([file], root).split('\n').slice(1)).toEqual([
      '0 passed, 1 failed, 1 skipped',
      'skipped: test/errors-under-lockdown.test.ts > a',
      'test/errors-under-lockdown.test.ts failed: dist/setup/read-setup-env.js is not built — run npm run build first (this file runs built code).',
      '',
    ]);
  });

  it('with no dist/ at all, a failed run says to build first; a run that passed does not', () => {
    const root = makeTempFolder('fresh-clone');
    const failed = moduleOf('test/sim-x.test.ts', [['starts', 'failed', undefined, []]]);
    expect(printed([failed], root)).toContain(
      '\nThere is no dist/: the files that run built code fail without it — run npm run build first (CONTRIBUTING.md, "One test file, without the whole build").\n',
    );
    const passed = moduleOf('test/pure.test.ts', [['adds', 'passed']]);
    expect(printed([passed], root)).toBe('\n1 passed, 0 failed, 0 skipped\n');
  });
});
