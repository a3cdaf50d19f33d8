/**
 * The end of a test's name that says why it is skipped here, when it is
 * (CONTRIBUTING, "Tests that skip"): `npm test` lists the skipped by name.
 */
export const skippedBecause = (reason: string | undefined): string =>
  reason === undefined ? '' : ` (skipped: ${reason})`;
harden(skippedBecause);
