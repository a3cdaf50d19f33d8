import { defineConfig } from 'vitest/config';
import { isConsoleNoise } from './test/support/console-noise.js';
import { TEST_MS, WAIT_MS } from './test/support/patience.js';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Lockdown first; then the agent's log lines, not under test, are not printed (test/support/quiet-logs.ts).
    setupFiles: ['test/setup-lockdown.ts', 'test/support/quiet-logs.ts'],
    // One private TMPDIR per run; leftovers there fail the run (test/support/temp-root.ts).
    globalSetup: ['test/support/temp-root.ts'],
    // Lockdown freezes intrinsics per process, so each test file gets its own fork.
    pool: 'forks',
    // vitest's default is one fork fewer than the cores: one on the 2-core CI machine. Many suites wait
    // on child processes and loopback servers, so two forks finish the run far sooner.
    maxWorkers: 2,
    reporters: ['default', './test/plain-summary-reporter.ts'],
    // What is known noise (test/support/console-noise.ts) is not printed.
    onConsoleLog: log => !isConsoleNoise(log),
    // `npm run coverage`: branch coverage of the agent, its providers and its tools.
    coverage: {
      provider: 'v8',
      include: ['agent.ts', 'src/**/*.ts', 'providers/**/*.ts', 'tools/**/*.ts'],
      // The pattern 'agent.ts' also takes every file whose name ends so (setup/pin-agent.ts,
      // sim/mail-host/host-agent.ts): setup and the daemon double are not the agent.
      exclude: ['**/*.d.ts', 'setup/**', 'sim/**'],
      reporter: ['text', 'text-summary'],
    },
    // Bounds for a loaded 2-core machine (test/support/patience.ts); a test waits for events, never sleeps.
    testTimeout: TEST_MS,
    hookTimeout: TEST_MS,
    expect: { poll: { timeout: WAIT_MS } },
  },
});
