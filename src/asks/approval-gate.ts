/**
 * Calls that need the HOST's approval. Asking is a request to the HOST (the
 * daemon's `request`): the model gets `pending` at once and the agent goes
 * on serving mail; the HOST resolving the request, with any value, means
 * yes and the call runs then; rejecting it means no. Either way the outcome
 * comes back to the model as a notice (APPROVED with the call's result, or
 * REFUSED with the HOST's reason), as for eval-proposals and requests.
 * Each open approval is kept in the agent's store (./pending-asks.ts):
 * a yes that comes after a restart cannot run the call (the turn that made
 * it is gone), so the model is told to call it again, and that one call of
 * exactly the same action (the same digest, ./describe-call.ts) runs once
 * without asking. The HOST is shown the action whole.
 * Kept free of tool specifics so any step that needs the HOST's yes can use it.
 */
import { E } from '@endo/far';
import { showHidden } from '../encoding/show-hidden.js';
import type { PowersRef } from '../daemon/guest-powers.js';
import { renderError } from '../encoding/render-for-model.js';
import { cut } from '../mail/message-record.js';
import { digestOfStored } from '../policy/describe-call.js';
import type { ApprovalAsk, ApprovalSeam } from '../policy/guard-tool-call.js';
import { whomToTell, type NoticeQueue, type Origin } from '../mail/origin.js';
import {
  isDisconnection,
  originOfAsk,
  storedOrigin,
  type PendingAsks,
  type Settlement,
  type StoredAsk,
} from './pending-asks.js';
import { describeError } from '../../providers/describe-error.js';

const RESULT_PREVIEW_CHARS = 4_000;
/** How much of a call help() shows (the HOST's request holds it whole). */
const LISTED_CHARS = 200;

interface PendingApproval {
  approvalId: string;
  action: string;
  origin: Origin | undefined;
}

/** An approval not yet told: waiting for the approver's answer, or approved and its call running. */
interface ListedApproval extends PendingApproval {
  approved: boolean;
}

export interface ApprovalGate extends ApprovalSeam {
  pending(): readonly ListedApproval[];
  /** For help(): one line per approval not yet told, its call cut to a preview. */
  describe(): string[];
  /** Finishes an approval asked for before a restart, once its own copy says how it ended. */
  resume(ask: StoredAsk, settlement: Settlement): Promise<void>;
  /**
   * The agent is being cancelled (`why`), which stops every approved call this run is running
   * (behaviour 6.7): each is stored as stopped so, for the next run to tell (issue 45).
   */
  stopRunning(why: string): void;
}

/** What the model is told about an approval asked for before a restart, unless it was refused. */
const resumedApprovalText = (
  settlement: Exclude<Settlement, 'rejected'> | 'partial',
  approver: string,
  call: string,
  whom: string,
  cancelReason = 'no reason given',
): string => {
  if (settlement === 'cancelled')
    return `CANCELLED: ${approver} approved ${call}, and it was running when I was cancelled (${cancelReason}): the call was stopped before it answered, so it did not finish.\nNext: check what it did before it was stopped before calling it again (${approver} is asked again), and tell ${whom}.`;
  if (settlement === 'partial')
    return `APPROVED: ${approver} approved ${call}, but I restarted meanwhile and kept only part of the call, so it did not run.\nNext: call it again if it is still needed (${approver} is asked again), and tell ${whom}.`;
  if (settlement === 'lost')
    return `NOT RUN: I restarted while waiting for ${approver}'s answer about ${call}, and the request is no longer in my inbox; it did not run.\nNext: call it again if it is still needed (${approver} is asked again), and tell ${whom}.`;
  if (settlement === 'interrupted')
    return `UNKNOWN: ${approver} approved ${call} and it was running when I restarted; I cannot tell whether it finished.\nNext: check whether it took effect before calling it again (${approver} is asked again), and tell ${whom}.`;
  return `APPROVED: ${approver} approved ${call}, but I restarted meanwhile, so it has not run yet.\nNext: call it again now with exactly the same arguments; it runs without asking. Then tell ${whom}.`;
};

/** What the conversation keeps of a call the approver stopped by cancelling the agent (no one to tell). */
const stoppedCallText = (approver: string, call: string, cancelReason = 'no reason given') =>
  `${resumedApprovalText('cancelled', approver, call, approver, cancelReason).split('\nNext:')[0]!}\nNext: ${approver} stopped it and knows; check what it did before calling it again (${approver} is asked again).`;

/** Keeps an outcome in the conversation for the next turn, without a turn of its own (`origin`: the message it served). */
type Keep = (title: string, text: string, origin: Origin | undefined) => void;

/**
 * What is told of an approval that ended while the agent restarted, and whether it is only kept:
 * a call stopped by the agent's cancellation (the approver's to make: Ctrl-C in npm start) on
 * the approver's own message is, as they know it; no turn asks the model what to tell them
 * (docs/behaviour.md 10.2; issue 45). Anything else is a notice for the model.
 */
const resumedOutcome = (
  ended: Exclude<Settlement, 'rejected'> | 'partial',
  told: { approver: string; call: string; origin: Origin | undefined; why: string | undefined },
  keep: Keep | undefined,
): { text: string; keep?: Keep } => {
  const { approver, call, origin, why } = told;
  if (ended === 'cancelled' && keep !== undefined && (origin?.sender ?? approver) === approver)
    return { text: stoppedCallText(approver, call, why), keep };
  return { text: resumedApprovalText(ended, approver, call, whomToTell(origin), why) };
};

/** How a notice names the call it is about. */
const told = (action: string, approvalId: string) =>
  `the call ${cut(action, 120)} (approval ${approvalId})`;

/** help()'s line for an approval not yet told: waiting for the approver, or approved and running. */
const listed = (approver: string, { approvalId, action, approved }: ListedApproval): string =>
  approved
    ? `approved by ${approver}, running: ${approvalId}: ${cut(action, LISTED_CHARS)}`
    : `waiting for ${approver}'s approval ${approvalId}: ${cut(action, LISTED_CHARS)}`;

/** The approvals not yet told, as the store keeps them. */
const approvalsIn = (asks: PendingAsks): ListedApproval[] =>
  asks
    .pending()
    .filter(entry => entry.kind === 'approval')
    .map(entry => ({
      approvalId: entry.id,
      action: typeof entry.detail.action === 'string' ? entry.detail.action : entry.description,
      origin: originOfAsk(entry),
      // Settled and not yet told: the yes came and the call is running (a no is told at once).
      approved: entry.state === 'settled',
    }));

export const makeApprovalGate = (options: {
  powers: PowersRef;
  notices: NoticeQueue;
  asks: PendingAsks;
  /** Who is asking, for the request's text (Lal, Fae). */
  agentName: string;
  /** Who approves (a pet name of the guest's): HOST. */
  approver?: string;
  /**
   * Keeps an outcome in the conversation for the next turn, without a turn of its own (no model
   * call); without it, every outcome is a notice.
   */
  keep?: Keep;
}): ApprovalGate => {
  const { powers, notices, agentName, asks } = options;
  const approver = options.approver ?? 'HOST';
  // Digests of actions approved after a restart, each allowed to run once without asking again.
  const allowances: string[] = [];
  // The calls asked for in this run, until told: a yes that comes through the ask's copy (after a disconnection) still runs it.
  const runs = new Map<string, () => Promise<string>>();
  // The approved calls running now in this run: a cancellation stops them (stopRunning).
  const running = new Set<string>();
  /** A notice for the model; with `keep`, kept in the conversation instead, no turn of its own. */
  const tell = (id: string, text: string, origin: Origin | undefined, keep?: Keep) => {
    if (keep === undefined) notices.push({ id, text, origin });
    asks.told(id);
    runs.delete(id);
    keep?.(`outcome: ${id} ${text.split(':')[0]!}`, text, origin);
  };

  const refused = ({ approvalId, action, origin }: PendingApproval, reason: string) =>
    tell(
      approvalId,
      `REFUSED: ${approver} refused ${told(action, approvalId)}: ${reason}\nIt did not run. Next: do not ask again for the same call; tell ${whomToTell(origin)}.`,
      origin,
    );

  /** The yes came while this run serves: the call runs once, then its result is told. */
  const runApproved = async (
    { approvalId, action, origin }: PendingApproval,
    run: () => Promise<string>,
  ) => {
    running.add(approvalId);
    const result = await run()
      .catch(renderError)
      .finally(() => running.delete(approvalId));
    tell(
      approvalId,
      `APPROVED: ${approver} approved ${told(action, approvalId)}; it ran and returned: ${cut(result, RESULT_PREVIEW_CHARS)}\nNext: carry on with what you needed it for, and tell ${whomToTell(origin)}.`,
      origin,
    );
  };

  const ask = ({ action, digest, origin, run, why, by }: ApprovalAsk) => {
    // Whom it serves first, before a long argument can push it out of view; the call as shown escaped (issue 30).
    const forWhom =
      origin === undefined ? '' : `While serving message #${origin.number} from ${origin.sender}, `;
    // What it says it read may hold a party's words (a label names a pet name, a note): escaped too.
    const because = why === undefined ? '' : `, asked because ${showHidden(why)}`;
    const describe = (approvalId: string) =>
      `${forWhom}${by ?? agentName} asks to call ${showHidden(action)}${because} (approval ${approvalId}). Resolve this request with any value to allow it (endo resolve takes the name of a stored value: endo store --text yes --name yes, then resolve with yes); reject it, with a reason, to refuse.`;
    const approvalId = asks.make('a', id => ({
      kind: 'approval',
      recipient: approver,
      description: describe(id),
      ...(origin === undefined ? {} : { origin: storedOrigin(origin)! }),
      detail: { action, digest },
    }));
    const description = describe(approvalId);
    runs.set(approvalId, run);
    Promise.resolve(E(powers).request(approver, description, undefined)).then(
      async () => {
        // Acted on once, and only while this run serves: after a stop the next run follows it.
        if (asks.answer(approvalId, 'yes') !== 'act') return;
        // Once the store says it is running: a restart meanwhile does not offer to run it again.
        await new Promise<void>(resolve => asks.afterSave(resolve));
        await runApproved({ approvalId, action, origin }, run);
      },
      (error: unknown) => {
        // The daemon going away is no answer: the approval keeps waiting.
        if (isDisconnection(error)) {
          asks.disconnected(approvalId);
          return;
        }
        if (asks.answer(approvalId, 'no') !== 'refuse') return;
        refused({ approvalId, action, origin }, describeError(error));
      },
    );
    asks.sent(approvalId);
    return harden({
      status: 'pending',
      approvalId,
      note: `This tool needs ${approver}'s approval, which has been asked for. You will get an APPROVED notice with its result, or a REFUSED one; do not wait for it, and do not call it again meanwhile.`,
    });
  };

  const resume: ApprovalGate['resume'] = async (stored, settlement) => {
    const origin = originOfAsk(stored);
    const action =
      typeof stored.detail.action === 'string' ? stored.detail.action : stored.description;
    if (settlement === 'rejected') {
      refused(
        { approvalId: stored.id, action, origin },
        'refused (the reason did not reach me: I learnt the answer from my copy of the request, which keeps only that it was refused)',
      );
      return;
    }
    const run = runs.get(stored.id);
    // Asked for in this run (the answer came through its copy): the call runs now.
    if (settlement === 'fulfilled' && run !== undefined) {
      await new Promise<void>(resolve => asks.afterSave(resolve));
      await runApproved({ approvalId: stored.id, action, origin }, run);
      return;
    }
    // Approved while the agent restarted: that one call may run once without asking again.
    const digest = settlement === 'fulfilled' ? digestOfStored(stored.detail, action) : undefined;
    if (digest !== undefined) allowances.push(digest);
    // A yes for a call kept only in part (stored before digests, cut): no allowance.
    const ended = settlement === 'fulfilled' && digest === undefined ? 'partial' : settlement;
    const call = told(action, stored.id);
    const why = stored.cancelReason;
    const { text, keep } = resumedOutcome(ended, { approver, call, origin, why }, options.keep);
    tell(stored.id, text, origin, keep);
  };

  const approvals = () => approvalsIn(asks);

  return {
    ask,
    pending: approvals,
    describe: () => approvals().map(entry => listed(approver, entry)),
    takeAllowance(digest) {
      const index = allowances.indexOf(digest);
      if (index === -1) return false;
      allowances.splice(index, 1);
      return true;
    },
    resume,
    stopRunning(why) {
      for (const id of running) asks.cancelled(id, why);
    },
  };
};
harden(makeApprovalGate);
