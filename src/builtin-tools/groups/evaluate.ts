/**
 * The `evaluate` tool: code proposed to the HOST (or run at once where the
 * daemon allows), its outcome arriving later as a notice.
 */
import type { BuiltinContext } from '../builtin-context.js';
import type { BuiltinArgs } from '../../agent-tools/builtin-schemas.js';

/** Undefined and "#undefined" both mean: no worker name. */
const workerNameOf = (value: string | undefined): string | undefined =>
  value === 'undefined' || value === '#undefined' ? undefined : value;

/** Proposes the code, with the values its definition read (../builtin-schemas.ts). */
export const runEvaluate = (values: BuiltinArgs<'evaluate'>, context: BuiltinContext): unknown => {
  const { source, codeNames, petNamePaths } = values;
  if (codeNames.length !== petNamePaths.length) {
    throw new Error(
      `codeNames and petNamePaths must have the same length, got ${codeNames.length} and ${petNamePaths.length}`,
    );
  }
  return context.proposals.propose({
    source,
    codeNames,
    petNamePaths,
    resultName: values.resultName,
    workerName: workerNameOf(values.workerName),
    origin: context.origin,
  });
};
harden(runEvaluate);
