/**
 * Calls that need the HOST's approval. Asking is a request to the HOST (the
 * daemon's `request`): the model gets `pending` at once and the agent goes
 * on serving mail; the HOST resolving the request, with any value, means
 * yes and the call runs then; rejecting it means no. Either way the outcome
 * comes back to the model as a notice (APPROVED with the call's result, or
 * REFUSED with the HOST's reason), as for eval-proposals and requests.
 * Kept free of tool specifics so any step that needs the HOST's yes can use it.
 */
import { E } from '@endo/far';
import type { PowersRef } from '../guest-powers.js';
import { renderError } from '../encoding/render-for-model.js';
import { cut } from '../mail/message-record.js';
import { whomToTell, type NoticeQueue, type Origin } from '../notices.js';

const RESULT_PREVIEW_CHARS = 4_000;

export interface ApprovalAsk {
  /** What is to be done, in a few words: `runCommand {"command":"ls"}`. */
  action: string;
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
}

export const makeApprovalGate = (options: {
  powers: PowersRef;
  notices: NoticeQueue;
  /** Who is asking, for the request's text (Lal, Fae). */
  agentName: string;
  /** Who approves (a pet name of the guest's): HOST. */
  approver?: string;
}): ApprovalGate => {
  const { powers, notices, agentName } = options;
  const approver = options.approver ?? 'HOST';
  const waiting = new Map<string, PendingApproval>();
  let nextId = 1;

  const ask = ({ action, origin, run }: ApprovalAsk) => {
    const approvalId = `a${nextId}`;
    nextId += 1;
    const entry = harden({ approvalId, action, origin });
    waiting.set(approvalId, entry);
    const forWhom = origin === undefined ? '' : ` while serving message #${origin.number} from ${origin.sender}`;
    const description = `${agentName} asks to call ${action}${forWhom} (approval ${approvalId}). Resolve this request with any value to allow it; reject it, with a reason, to refuse.`;
    const told = `the call ${cut(action, 120)} (approval ${approvalId})`;
    Promise.resolve(E(powers).request(approver, description, undefined)).then(
      async () => {
        let result: string;
        try {
          result = await run();
        } catch (error) {
          result = renderError(error);
        }
        waiting.delete(approvalId);
        notices.push({
          id: approvalId,
          text: `APPROVED: ${approver} approved ${told}; it ran and returned: ${cut(result, RESULT_PREVIEW_CHARS)}\nNext: carry on with what you needed it for, and tell ${whomToTell(origin)}.`,
          origin,
        });
      },
      (error: unknown) => {
        waiting.delete(approvalId);
        const reason = error instanceof Error ? error.message : String(error);
        notices.push({
          id: approvalId,
          text: `REFUSED: ${approver} refused ${told}: ${reason}\nIt did not run. Next: do not ask again for the same call; tell ${whomToTell(origin)}.`,
          origin,
        });
      },
    );
    return harden({
      status: 'pending',
      approvalId,
      note: `This tool needs ${approver}'s approval, which has been asked for. You will get an APPROVED notice with its result, or a REFUSED one; do not wait for it, and do not call it again meanwhile.`,
    });
  };

  return {
    ask,
    hasPendingFor: number => [...waiting.values()].some(entry => entry.origin?.number === number),
    pending: () => [...waiting.values()],
  };
};
