/**
 * 12345 → "12,345" for help() and quota notices. Not toLocaleString: SES
 * lockdown tames it to plain toString, so in the daemon it never grouped.
 */
export const formatCount = (count: number): string =>
  String(count).replace(/\B(?=(\d{3})+$)/g, ',');
harden(formatCount);
