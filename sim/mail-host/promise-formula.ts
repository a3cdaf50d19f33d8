/**
 * The daemon's promise/resolver formula pair behind a request: the resolver
 * settles the promise with a formula id (or a rejection); the promise formula
 * provides that id. Both outlive a restart.
 */
import { makeGuardedExo } from './guarded-exo.js';
import { M } from '@endo/patterns';
import type { InterfaceGuard } from '@endo/patterns';
import { assertFormulaId } from './formula-id.js';
import type { FormulaTable } from './formula-table.js';
import type { FormulaId, Responder, Settlement } from './types.js';

const ResponderInterface: InterfaceGuard = M.interface('EndoResponder', {
  resolveWithId: M.call(M.or(M.string(), M.promise())).returns(),
});

/** A promise for a formula id and the responder exo that settles it. */
export const makeResponseKit = (exoName = 'EndoResponder') => {
  let resolveId!: (value: FormulaId | Promise<never>) => void;
  const responseId = new Promise<FormulaId>(resolve => {
    resolveId = resolve;
  });
  // The proposer may never look at it; a rejection must not go unhandled.
  responseId.catch(() => {});
  const settled: Promise<Settlement> = responseId.then(
    () => 'fulfilled',
    () => 'rejected',
  );
  const responder = makeGuardedExo<Responder>(exoName, ResponderInterface, {
    resolveWithId(idOrRejection: string | Promise<never>) {
      if (typeof idOrRejection === 'string') assertFormulaId(idOrRejection);
      resolveId(idOrRejection);
    },
  });
  return harden({ responseId, settled, responder });
};
harden(makeResponseKit);

export const formulatePromise = (table: FormulaTable) => {
  const { responseId, settled, responder } = makeResponseKit('EndoResolver');
  const promiseId = table.formulate({ type: 'promise', provide: () => responseId });
  const resolverId = table.formulate({ type: 'resolver', provide: () => responder });
  table.remember(responder, resolverId);
  return harden({ promiseId, resolverId, responseId, settled, resolver: responder });
};
harden(formulatePromise);
