/**
 * How long a test waits, in one place: bounds generous enough for a loaded
 * 2-core machine (CI's, or a laptop running the suite beside other work; the
 * check at load is in CONTRIBUTING.md, "A busy machine"). A test waits for an
 * event or a count within these, never a fixed sleep; a test that needs more
 * (a child that builds) names its own, longer bound.
 */

/** One awaited event or count: `expect.poll`, a message in an inbox, a line of a child's output. */
export const WAIT_MS = 30_000;

/** One child process a test runs whole (the simulator, a script). */
export const CHILD_MS = 100_000;

/** One test, or one hook, with everything it waits for (vitest's testTimeout and hookTimeout). */
export const TEST_MS = 150_000;
