/**
 * What happens to a message once its turn is over: it is dismissed, unless
 * the model did so itself, or something done for it (a proposal, a
 * request, an approval, a helper) still awaits its outcome, or an outcome that
 * settled after the model's last call is still to be told (its sender must
 * stay answerable).
 */
import { farOf } from '../daemon/far-ref.js';
import type { PowersRef } from '../daemon/guest-powers.js';
import type { AgentParts } from './agent-parts.js';

/** Dismisses a message by number, quietly (it may be gone already). */
export const safeDismiss = (powers: PowersRef, number: unknown): Promise<void> =>
  typeof number === 'bigint'
    ? Promise.resolve(farOf(powers).dismiss(number)).catch(() => {})
    : Promise.resolve();
harden(safeDismiss);

export const makeMessageFinisher =
  (powers: PowersRef, parts: Pick<AgentParts, 'turns' | 'asks' | 'notices' | 'helpers'>) =>
  async (number: bigint): Promise<void> => {
    const { turns, asks, notices, helpers } = parts;
    if (turns.takeDismissedByModel(number) || asks.hasPendingFor(number)) return;
    if (helpers.workFor(number)) return;
    if (notices.waitsFor(number)) return;
    await safeDismiss(powers, number);
  };
harden(makeMessageFinisher);
