/**
 * The one helper for an error's text: its message when it is an Error,
 * or the message of an error-like object (one made in another realm), else
 * the value as a string. It lives in providers/ because that is the
 * one folder every other may import (test/layout.test.ts): the agent,
 * the tool caplets, setup and the simulator all use this one.
 */
export const describeError = (error: unknown): string => {
  if (error instanceof Error) return error.message;
  // An error from another realm (a daemon worker's) is no instance of this realm's Error.
  const message = (error as { message?: unknown } | null | undefined)?.message;
  return typeof message === 'string' ? message : String(error);
};
harden(describeError);
