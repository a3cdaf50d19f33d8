/**
 * A grouped op reads each argument under its new name or the name it had
 * when the op was a tool of its own (`path` or `petNamePath`, `to` or
 * `toPath`), so calls written either way work.
 */
import type { Args } from '../read-args.js';

const given = (value: unknown): boolean => value !== undefined && value !== null && value !== '';

/** The first of these keys the call gives, else the first (whose reader then says it is required). */
export const keyIn = (args: Args, ...keys: [string, ...string[]]): string =>
  keys.find(key => given(args[key])) ?? keys[0];
