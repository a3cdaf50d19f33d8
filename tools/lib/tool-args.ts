/**
 * What a tool call's arguments are, and the readings the stated parameters
 * (./fae-parameters.ts) share: a number from what models write, and a
 * value's type in words for a refusal (never its content).
 */

export type ToolArgs = Readonly<Record<string, unknown>>;

/**
 * Reads a number from a number, a bigint or a numeric string; undefined when
 * the value is none of these. Non-finite results are left to the caller.
 */
export const toNumber = (value: unknown): number | undefined => {
  if (typeof value === 'number') return value;
  if (typeof value === 'bigint') return Number(value);
  if (typeof value === 'string' && value.trim() !== '') {
    const parsed = Number(value.trim());
    return Number.isNaN(parsed) ? undefined : parsed;
  }
  return undefined;
};
harden(toNumber);

/** A short description of a value's type for error messages (never its content). */
export const describeType = (value: unknown): string => {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
};
harden(describeType);
