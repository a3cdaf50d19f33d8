/**
 * Argument readers shared by the tool caplets (their types and bounds; the
 * names and required ones are checked from the tool's `parameters` by
 * ./make-fae-tool.ts). Every failure is an Error whose message names the
 * tool and the argument, so the model can correct itself.
 */

export type ToolArgs = Readonly<Record<string, unknown>>;

/** A required string argument. `allowEmpty` lets '' through (file content). */
export const requireString = (
  toolName: string,
  args: ToolArgs,
  key: string,
  { allowEmpty = false }: { allowEmpty?: boolean } = {},
): string => {
  const value = args[key];
  if (value === undefined || value === null) {
    throw Error(`${toolName}: ${key} is required`);
  }
  if (typeof value !== 'string') {
    throw Error(`${toolName}: ${key} must be a string, got ${describeType(value)}`);
  }
  if (!allowEmpty && value === '') {
    throw Error(`${toolName}: ${key} must not be empty`);
  }
  return value;
};
harden(requireString);

/** An optional string argument; `undefined` and `null` mean absent. */
export const optionalString = (
  toolName: string,
  args: ToolArgs,
  key: string,
): string | undefined => {
  const value = args[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') {
    throw Error(`${toolName}: ${key} must be a string, got ${describeType(value)}`);
  }
  return value;
};
harden(optionalString);

/**
 * An optional integer within [min, max]. Accepts a number, a bigint (the
 * agent decodes "+5" as 5n) or a string of digits (models often quote numbers).
 */
export const optionalInteger = (
  toolName: string,
  args: ToolArgs,
  key: string,
  { min, max }: { min: number; max: number },
): number | undefined => {
  const value = args[key];
  if (value === undefined || value === null) return undefined;
  const number = toNumber(value);
  if (number === undefined || !Number.isInteger(number)) {
    throw Error(`${toolName}: ${key} must be an integer, got ${describeType(value)}`);
  }
  if (number < min || number > max) {
    throw Error(`${toolName}: ${key} must be between ${min} and ${max}, got ${number}`);
  }
  return number;
};
harden(optionalInteger);

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
