/**
 * The `evaluate` tool: code proposed to the HOST (or run at once where the
 * daemon allows), its outcome arriving later as a notice.
 */
import type { BuiltinContext } from '../builtin-context.js';
import { readPathList, readString, readStringList, type Args } from '../read-args.js';

/** Undefined and "#undefined" both mean: no worker name. */
const readWorkerName = (args: Args): string | undefined => {
  const value = args.workerName;
  if (
    value === undefined ||
    value === null ||
    value === '' ||
    value === 'undefined' ||
    value === '#undefined'
  ) {
    return undefined;
  }
  return readString(args, 'workerName');
};

export const runEvaluate = (args: Args, context: BuiltinContext): unknown => {
  const source = readString(args, 'source');
  const codeNames = readStringList(args, 'codeNames');
  const petNamePaths = readPathList(args, 'petNamePaths');
  if (codeNames.length !== petNamePaths.length) {
    throw new Error(
      `codeNames and petNamePaths must have the same length, got ${codeNames.length} and ${petNamePaths.length}`,
    );
  }
  return context.proposals.propose({
    source,
    codeNames,
    petNamePaths,
    resultName: readString(args, 'resultName'),
    workerName: readWorkerName(args),
    origin: context.origin,
  });
};
