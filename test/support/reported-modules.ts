/**
 * Finished test modules as test/plain-summary-reporter.ts reads them, made by hand: each test's
 * full name, state and errors, the errors of the module itself (a load error, a hook that threw at
 * its top) and of its suites (a describe's hook that threw). Vitest reports these three apart.
 */
import type { TestModule } from 'vitest/node';

type Failure = { message: string };
export type ReportedTest = [
  fullName: string,
  state: string,
  note?: string | undefined,
  errors?: Failure[],
];
export interface ReportedModule {
  tests: ReportedTest[];
  /** The module's own errors (it failed to load, or a top-level hook threw). */
  errors?: Failure[];
  /** Suites whose own hook threw, with its errors. */
  suites?: Failure[][];
}

export const moduleOf = (path: string, given: ReportedTest[] | ReportedModule) => {
  const { tests, errors = [], suites = [] } = Array.isArray(given) ? { tests: given } : given;
  const failed =
    errors.length > 0 || suites.some(own => own.length > 0) || tests.some(t => t[1] === 'failed');
  return {
    relativeModuleId: path,
    state: () => (failed ? 'failed' : 'passed'),
    errors: () => errors,
    children: {
      allTests: () =>
        tests.map(([fullName, state, note, testErrors = []]) => ({
          fullName,
          result: () => ({ state, note, errors: testErrors }),
        })),
      allSuites: () => suites.map(own => ({ errors: () => own })),
    },
  } as unknown as TestModule;
};
