/**
 * The one helper for an error's text: its message when it is an Error,
 * else the value as a string. It lives in providers/ because that is the
 * one folder every other may import (test/layout.test.ts): the agent,
 * the tool caplets, setup and the simulator all use this one.
 */
export const describeError = (error: unknown): string =>
  error instanceof Error ? error.message : String(error);
harden(describeError);
