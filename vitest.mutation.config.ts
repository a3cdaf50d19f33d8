// The vitest configuration of `npm run mutation` (stryker.config.mjs): the suite's own, limited to
// the test files scripts/mutation.mjs lists for the module under mutation (LAL_MUTATION_TESTS,
// comma-separated). Stryker's --testFiles would do the same but activates module-level (static)
// mutants after the module has loaded, so they would survive whatever the tests assert.
import { defineConfig } from 'vitest/config';
import type { ViteUserConfig } from 'vitest/config';
import base from './vitest.config.js';

const tests = process.env.LAL_MUTATION_TESTS?.split(',').filter(file => file !== '');

const config: ViteUserConfig = defineConfig({
  ...base,
  test: { ...base.test, ...(tests === undefined ? {} : { include: tests }) },
});
export default config;
