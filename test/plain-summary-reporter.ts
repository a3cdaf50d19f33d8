/**
 * Prints one plain closing line, "N passed, N failed, N skipped", after
 * vitest's own report, so that CI (which reads that line) counts the tests;
 * then one line for each test skipped, with its file and why (its name says
 * where it runs, CONTRIBUTING's "Tests that skip"; a note given to skip()).
 * A run filtered by -t skips the rest by the filter: those are not listed.
 * A file or suite that failed on its own (it did not load, a hook threw) is
 * a failure whatever number of tests it holds; one that failed for want of
 * built code says to build first (CONTRIBUTING, "One test file, without the
 * whole build").
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Reporter, TestModule, Vitest } from 'vitest/node';

/** A module of dist/ that Node could not find: the file ran built code that is not built. */
const MISSING_BUILT = /Cannot find module '[^']*\/(dist\/[^']+)'/;

/** Every error reported in a module: its own, its suites' (hooks), its tests'. */
const errorsOf = (module: TestModule): { message?: string; stack?: string }[] => [
  ...module.errors(),
  ...[...module.children.allSuites()].flatMap(suite => suite.errors()),
  ...[...module.children.allTests()].flatMap(test => test.result().errors ?? []),
];

/** The first dist/ module a failed file wanted and did not find. */
const missingBuilt = (module: TestModule): string | undefined => {
  for (const error of errorsOf(module)) {
    const found = MISSING_BUILT.exec(`${error.message ?? ''}\n${error.stack ?? ''}`);
    if (found !== null) return found[1];
  }
  return undefined;
};

export default class PlainSummaryReporter implements Reporter {
  private filtered = false;
  private root = process.cwd();

  onInit(vitest: Vitest): void {
    this.filtered = vitest.config.testNamePattern !== undefined;
    this.root = vitest.config.root ?? this.root;
  }

  onTestRunEnd(
    testModules: ReadonlyArray<TestModule>,
    unhandledErrors: ReadonlyArray<unknown>,
  ): void {
    let passed = 0;
    let failed = 0;
    const skipped: string[] = [];
    const unbuilt: string[] = [];
    for (const module of testModules) {
      const before = failed;
      for (const test of module.children.allTests()) {
        const result = test.result();
        if (result.state === 'passed') passed += 1;
        else if (result.state === 'failed') failed += 1;
        else {
          const note = 'note' in result && result.note !== undefined ? ` (${result.note})` : '';
          skipped.push(`skipped: ${module.relativeModuleId} > ${test.fullName}${note}`);
        }
      }
      // A file or suite that failed on its own (a load error, a hook that threw) has errors of its
      // own, apart from its tests': one failure each, whether its tests were run or not.
      if (module.errors().length > 0) failed += 1;
      for (const suite of module.children.allSuites()) if (suite.errors().length > 0) failed += 1;
      if (module.state() !== 'failed') continue;
      // Failed with no error said anywhere (vitest gives none): still one failure.
      if (failed === before) failed += 1;
      const wanted = missingBuilt(module);
      if (wanted !== undefined)
        unbuilt.push(
          `${module.relativeModuleId} failed: ${wanted} is not built — run npm run build first (this file runs built code).`,
        );
    }
    failed += unhandledErrors.length;
    const named = this.filtered ? [] : skipped;
    // A fresh clone: the files that run built code fail, each in its own way; one line says why.
    if (failed > 0 && !existsSync(join(this.root, 'dist')))
      unbuilt.push(
        'There is no dist/: the files that run built code fail without it — run npm run build first (CONTRIBUTING.md, "One test file, without the whole build").',
      );
    process.stdout.write(
      `\n${passed} passed, ${failed} failed, ${skipped.length} skipped\n${[...named, ...unbuilt].map(line => `${line}\n`).join('')}`,
    );
  }
}
