/**
 * Prints one plain closing line, "N passed, N failed, N skipped", after
 * vitest's own report, so that CI (which reads that line) counts the tests;
 * then one line for each test skipped, with its file and why (its name says
 * where it runs, CONTRIBUTING's "Tests that skip"; a note given to skip()).
 * A run filtered by -t skips the rest by the filter: those are not listed.
 */
import type { Reporter, TestModule, Vitest } from 'vitest/node';

export default class PlainSummaryReporter implements Reporter {
  private filtered = false;

  onInit(vitest: Vitest): void {
    this.filtered = vitest.config.testNamePattern !== undefined;
  }

  onTestRunEnd(
    testModules: ReadonlyArray<TestModule>,
    unhandledErrors: ReadonlyArray<unknown>,
  ): void {
    let passed = 0;
    let failed = 0;
    const skipped: string[] = [];
    for (const module of testModules) {
      for (const test of module.children.allTests()) {
        const result = test.result();
        if (result.state === 'passed') passed += 1;
        else if (result.state === 'failed') failed += 1;
        else {
          const note = 'note' in result && result.note !== undefined ? ` (${result.note})` : '';
          skipped.push(`skipped: ${module.relativeModuleId} > ${test.fullName}${note}`);
        }
      }
      // A file that failed to load has no tests but is a failure.
      if (module.state() === 'failed' && [...module.children.allTests()].length === 0) failed += 1;
    }
    failed += unhandledErrors.length;
    const named = this.filtered ? [] : skipped;
    process.stdout.write(
      `\n${passed} passed, ${failed} failed, ${skipped.length} skipped\n${named.map(line => `${line}\n`).join('')}`,
    );
  }
}
