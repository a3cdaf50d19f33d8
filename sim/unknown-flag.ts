/**
 * The one line for a flag a program does not know, shared by `npm start` and
 * `npm run model-double` (issue 45): the flag meant, when one is near, else
 * --help. A flag typed short (`--prot`) means the one flag it begins, before
 * one a letter or two away (`--port`); otherwise the nearest by spelling.
 */
import { closestNames } from '../providers/closest-names.js';

/** The flag `typed` most likely meant among `flags`, if any is near. */
const meantFlag = (typed: string, flags: readonly string[]): string | undefined => {
  const begun = typed.length > 3 ? flags.filter(flag => flag.startsWith(typed)) : [];
  if (begun.length === 1) return begun[0];
  return closestNames(typed, flags, 1)[0];
};

/** `Unknown argument "--prot"; did you mean --protocol? (--help lists them)`. */
export const unknownFlagError = (arg: string, flags: readonly string[]): string => {
  const flag = arg.startsWith('--') && arg.includes('=') ? arg.slice(0, arg.indexOf('=')) : arg;
  const near = meantFlag(flag, flags);
  const hint = near === undefined ? 'try --help' : `did you mean ${near}? (--help lists them)`;
  return `Unknown argument ${JSON.stringify(arg)}; ${hint}`;
};
harden(unknownFlagError);

/**
 * `--fresh takes no value; got "--fresh=0": …`: a value given to a flag that takes none is refused,
 * not read as the flag (`--fresh=no` wiping the state folder) nor as its absence (issue 45).
 */
export const noValueError = (arg: string): string => {
  const flag = arg.slice(0, arg.indexOf('='));
  return `${flag} takes no value; got ${JSON.stringify(arg)}: give ${flag} alone, or leave it out`;
};
harden(noValueError);
