/**
 * A message as the simulator's state folder keeps it between runs, and the
 * envelope put back from it: a text message as it was; a request without its
 * live `settled`, with how its promise stood, the promise/resolver pair made
 * again under its ids when it is put back (./promise-formula.ts). A kept
 * entry that is neither, or not whole, is not put back.
 */
import { isFormulaId } from './formula-id.js';
import type { FormulaTable } from './formula-table.js';
import type { KeptMessage } from './mail-host.js';
import { formulateKeptPromise, type KeptOutcome } from './promise-formula.js';
import type { Envelope } from './types.js';

export const keptMessage = (
  table: FormulaTable,
  number: bigint,
  envelope: Envelope,
  date: string,
): KeptMessage => {
  if (envelope.type !== 'request') return { number: String(number), envelope, date };
  const { settled: _live, ...written } = envelope;
  const outcome = table.outcomeOf(envelope.promiseId) ?? { state: 'pending' };
  return { number: String(number), envelope: written as Envelope, date, outcome };
};
harden(keptMessage);

const isOutcome = (outcome: unknown): outcome is KeptOutcome => {
  const kept = outcome as { state?: unknown; id?: unknown; reason?: unknown } | null;
  if (kept?.state === 'pending') return true;
  if (kept?.state === 'fulfilled') return typeof kept.id === 'string' && isFormulaId(kept.id);
  return kept?.state === 'rejected' && typeof kept.reason === 'string';
};

export const envelopeToPutBack = (
  table: FormulaTable,
  { envelope, outcome }: KeptMessage,
): Envelope | undefined => {
  if (envelope.type === 'package') return harden(envelope);
  if (envelope.type !== 'request') return undefined;
  const { promiseId, resolverId, description } = envelope;
  const whole =
    typeof description === 'string' &&
    typeof promiseId === 'string' &&
    isFormulaId(promiseId) &&
    typeof resolverId === 'string' &&
    isFormulaId(resolverId) &&
    isOutcome(outcome);
  if (!whole) return undefined;
  const settled = formulateKeptPromise(table, { promiseId, resolverId }, outcome);
  return harden({ ...envelope, settled });
};
harden(envelopeToPutBack);
