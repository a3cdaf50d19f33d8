/**
 * The `evaluate` tool: code proposed to the HOST (or run at once where the
 * daemon allows), its outcome arriving later as a notice.
 */
import type { BuiltinContext } from '../builtin-context.js';
import type { ToolValues } from '../../agent-tools/validate-arguments.js';

/** Undefined and "#undefined" both mean: no worker name. */
const workerNameOf = (value: string | undefined): string | undefined =>
  value === 'undefined' || value === '#undefined' ? undefined : value;

/** Proposes the code, with the values its definition read (../builtin-schemas.ts). */
export const runEvaluate = (values: ToolValues, context: BuiltinContext): unknown => {
  const source = values.source as string;
  const codeNames = values.codeNames as string[];
  const petNamePaths = values.petNamePaths as (string | string[])[];
  if (codeNames.length !== petNamePaths.length) {
    throw new Error(
      `codeNames and petNamePaths must have the same length, got ${codeNames.length} and ${petNamePaths.length}`,
    );
  }
  return context.proposals.propose({
    source,
    codeNames,
    petNamePaths,
    resultName: values.resultName as string,
    workerName: workerNameOf(values.workerName as string | undefined),
    origin: context.origin,
  });
};
harden(runEvaluate);
