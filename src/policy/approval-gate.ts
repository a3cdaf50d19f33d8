/**
 * Calls that need the HOST's approval. Asking is a request to the HOST (the
 * daemon's `request`): the model gets `pending` at once and the agent goes
 * on serving mail; the HOST resolving the request, with any value, means
 * yes and the call runs then; rejecting it means no. Either way the outcome
 * comes back to the model as a notice (APPROVED with the call's result, or
 * REFUSED with the HOST's reason), as for eval-proposals and requests.
 * Each open approval is kept in the agent's store (pending/pending-asks.ts):
 * a yes that comes after a restart cannot run the call (the turn that made
 * it is gone), so the model is told to call it again, and that one call of
 * exactly the same action (the same digest, ./describe-call.ts) runs once
 * without asking. The HOST is shown the action whole.
 * Kept free of tool specifics so any step that needs the HOST's yes can use it.
 */
import { E } from '@endo/far';
import type { PowersRef } from '../guest-powers.js';
import { renderError } from '../encoding/render-for-model.js';
import { cut } from '../mail/message-record.js';
import { digestOfStored } from './describe-call.js';
import { whomToTell, type NoticeQueue, type Origin } from '../notices.js';
import {
  isDisconnection,
  originOfAsk,
  storedOrigin,
  type PendingAsks,
  type Settlement,
  type StoredAsk,
} from '../pending/pending-asks.js';

const RESULT_PREVIEW_CHARS = 4_000;

export interface ApprovalAsk {
  /** What is to be done, whole (the HOST approves what it reads): `runCommand {"command":"ls"}`. */
  action: string;
  /** The digest of `action`, which keys the allowance a yes after a restart leaves. */
  digest: string;
  /** The message being served when it was asked for. */
  origin: Origin | undefined;
  /** Does it, once approved; returns what the model should see. */
  run: () => Promise<string>;
}

export interface PendingApproval {
  approvalId: string;
  action: string;
  origin: Origin | undefined;
}

export interface ApprovalGate {
  ask(request: ApprovalAsk): Readonly<Record<string, unknown>>;
  hasPendingFor(number: bigint): boolean;
  pending(): readonly PendingApproval[];
  /** Whether the HOST approved the action of this digest before a restart and it has not run since (taken once). */
  takeAllowance(digest: string): boolean;
  /** Finishes an approval asked for before a restart, once its own copy says how it ended. */
  resume(ask: StoredAsk, settlement: Settlement): void;
}

export const makeApprovalGate = (options: {
  powers: PowersRef;
  notices: NoticeQueue;
  asks: PendingAsks;
  /** Who is asking, for the request's text (Lal, Fae). */
  agentName: string;
  /** Who approves (a pet name of the guest's): HOST. */
  approver?: string;
}): ApprovalGate => {
  const { powers, notices, agentName, asks } = options;
  const approver = options.approver ?? 'HOST';
  // Digests of actions approved after a restart, each allowed to run once without asking again.
  const allowances: string[] = [];
  const told = (action: string, approvalId: string) =>
    `the call ${cut(action, 120)} (approval ${approvalId})`;

  const refused = (
    approvalId: string,
    action: string,
    origin: Origin | undefined,
    reason: string,
  ) => {
    asks.settle(approvalId);
    notices.push({
      id: approvalId,
      text: `REFUSED: ${approver} refused ${told(action, approvalId)}: ${reason}\nIt did not run. Next: do not ask again for the same call; tell ${whomToTell(origin)}.`,
      origin,
    });
  };

  const ask = ({ action, digest, origin, run }: ApprovalAsk) => {
    const approvalId = asks.reserve('a');
    const forWhom =
      origin === undefined ? '' : ` while serving message #${origin.number} from ${origin.sender}`;
    const description = `${agentName} asks to call ${action}${forWhom} (approval ${approvalId}). Resolve this request with any value to allow it; reject it, with a reason, to refuse.`;
    asks.add({
      id: approvalId,
      kind: 'approval',
      recipient: approver,
      description,
      ...(origin === undefined ? {} : { origin: storedOrigin(origin)! }),
      detail: { action, digest },
    });
    Promise.resolve(E(powers).request(approver, description, undefined)).then(
      async () => {
        // This run has stopped: the next one follows the approval and tells the model.
        if (asks.stopped()) return;
        let result: string;
        try {
          result = await run();
        } catch (error) {
          result = renderError(error);
        }
        asks.settle(approvalId);
        notices.push({
          id: approvalId,
          text: `APPROVED: ${approver} approved ${told(action, approvalId)}; it ran and returned: ${cut(result, RESULT_PREVIEW_CHARS)}\nNext: carry on with what you needed it for, and tell ${whomToTell(origin)}.`,
          origin,
        });
      },
      (error: unknown) => {
        // The daemon going away (or this run stopping) is no answer: the approval stays stored for the next run.
        if (asks.stopped() || isDisconnection(error)) return;
        refused(approvalId, action, origin, error instanceof Error ? error.message : String(error));
      },
    );
    return harden({
      status: 'pending',
      approvalId,
      note: `This tool needs ${approver}'s approval, which has been asked for. You will get an APPROVED notice with its result, or a REFUSED one; do not wait for it, and do not call it again meanwhile.`,
    });
  };

  const resume: ApprovalGate['resume'] = (stored, settlement) => {
    const origin = originOfAsk(stored);
    const action =
      typeof stored.detail.action === 'string' ? stored.detail.action : stored.description;
    if (settlement === 'rejected') {
      refused(stored.id, action, origin, 'refused (the reason did not reach me across my restart)');
      return;
    }
    asks.settle(stored.id);
    if (settlement === 'lost') {
      notices.push({
        id: stored.id,
        text: `UNKNOWN: I restarted while waiting for ${approver}'s answer about ${told(action, stored.id)}, and the request is no longer in my inbox; it did not run.\nNext: call it again if it is still needed (${approver} is asked again), and tell ${whomToTell(origin)}.`,
        origin,
      });
      return;
    }
    const digest = digestOfStored(stored.detail, action);
    if (digest === undefined) {
      notices.push({
        id: stored.id,
        text: `APPROVED: ${approver} approved ${told(action, stored.id)}, but I restarted meanwhile and kept only part of the call, so it did not run.\nNext: call it again if it is still needed (${approver} is asked again), and tell ${whomToTell(origin)}.`,
        origin,
      });
      return;
    }
    allowances.push(digest);
    notices.push({
      id: stored.id,
      text: `APPROVED: ${approver} approved ${told(action, stored.id)}, but I restarted meanwhile, so it has not run yet.\nNext: call it again now with exactly the same arguments; it runs without asking. Then tell ${whomToTell(origin)}.`,
      origin,
    });
  };

  const approvals = (): PendingApproval[] =>
    asks
      .pending()
      .filter(entry => entry.kind === 'approval')
      .map(entry => ({
        approvalId: entry.id,
        action: typeof entry.detail.action === 'string' ? entry.detail.action : entry.description,
        origin: originOfAsk(entry),
      }));

  return {
    ask,
    hasPendingFor: number => approvals().some(entry => entry.origin?.number === number),
    pending: approvals,
    takeAllowance(digest) {
      const index = allowances.indexOf(digest);
      if (index === -1) return false;
      allowances.splice(index, 1);
      return true;
    },
    resume,
  };
};
