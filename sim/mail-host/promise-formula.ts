/**
 * The daemon's promise/resolver formula pair behind a request: the resolver
 * settles the promise with a formula id (or a rejection); the promise formula
 * provides that id. Both outlive a restart, and a process: how the promise
 * stands is kept (`KeptOutcome`) and the pair made again under its ids.
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

/** How a request's promise stands, as the simulator's state folder keeps it between runs. */
export type KeptOutcome =
  | { readonly state: 'pending' }
  | { readonly state: 'fulfilled'; readonly id: FormulaId }
  | { readonly state: 'rejected'; readonly reason: string };

/** A promise for a formula id and the responder exo that settles it. */
export const makeResponseKit = (exoName = 'EndoResponder') => {
  let resolveId!: (value: FormulaId | Promise<never>) => void;
  const responseId = new Promise<FormulaId>(resolve => {
    resolveId = resolve;
  });
  let outcome: KeptOutcome = harden({ state: 'pending' });
  // The proposer may never look at it; a rejection must not go unhandled.
  responseId.then(
    id => {
      outcome = harden({ state: 'fulfilled', id });
    },
    (error: unknown) => {
      outcome = harden({
        state: 'rejected',
        reason: error instanceof Error ? error.message : String(error),
      });
    },
  );
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
  return harden({ responseId, settled, responder, outcome: () => outcome });
};
harden(makeResponseKit);

/** Registers a promise/resolver pair under the ids given (new ones, or kept ones made again). */
const registerPair = (
  table: FormulaTable,
  promiseId: FormulaId,
  resolverId: FormulaId,
  kit: ReturnType<typeof makeResponseKit>,
) => {
  table.register(promiseId, {
    type: 'promise',
    provide: () => kit.responseId,
    outcome: kit.outcome,
  });
  table.register(resolverId, { type: 'resolver', provide: () => kit.responder });
  table.remember(kit.responder, resolverId);
};

export const formulatePromise = (table: FormulaTable) => {
  const kit = makeResponseKit('EndoResolver');
  const promiseId = table.mint();
  const resolverId = table.mint();
  registerPair(table, promiseId, resolverId, kit);
  const { responseId, settled, responder } = kit;
  return harden({ promiseId, resolverId, responseId, settled, resolver: responder });
};
harden(formulatePromise);

/**
 * The pair behind a request an earlier run of the daemon kept, made again
 * under its ids as it stood (once: the sender's and the recipient's copies
 * share it); its settlement, for the request's record.
 */
export const formulateKeptPromise = (
  table: FormulaTable,
  { promiseId, resolverId }: { promiseId: FormulaId; resolverId: FormulaId },
  outcome: KeptOutcome,
): Promise<Settlement> => {
  if (table.typeOf(promiseId) === undefined) {
    const kit = makeResponseKit('EndoResolver');
    registerPair(table, promiseId, resolverId, kit);
    if (outcome.state === 'fulfilled') kit.responder.resolveWithId(outcome.id);
    if (outcome.state === 'rejected') {
      const rejection = Promise.reject(harden(Error(outcome.reason)));
      rejection.catch(() => {});
      kit.responder.resolveWithId(harden(rejection));
    }
    return kit.settled;
  }
  return table.provide(promiseId).then(
    () => 'fulfilled',
    () => 'rejected',
  );
};
harden(formulateKeptPromise);
