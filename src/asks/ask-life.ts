/**
 * The life of one ask (a request, a tool approval, a host-approved
 * evaluation, an eval-proposal), as a pure function of its state and what
 * happened: made → sent → settled → told → dismissed, or lost when, after a
 * restart, nothing in the inbox can say how it ended. What the ask's owner
 * does (run the call, tell the model, dismiss the copy) is the `effect`.
 *
 * Restart, cancellation and disconnection are events here too:
 * - a run that has stopped (cancelled, or restarting) acts on nothing: its
 *   asks stay as stored, for the next run to follow (`serving` false); a
 *   call it was running that its cancellation stopped is stored as
 *   `cancelled` first, so the next run tells that, not an unknown end;
 * - a disconnection is no answer: the ask keeps waiting (through its own
 *   copy in the inbox, or in the next run), never a refusal;
 * - an answer to an ask that is no longer waiting is ignored, so a yes is
 *   acted on once.
 */

export type AskState =
  | 'made'
  | 'sent'
  | 'settled'
  /** The yes had come and its call was running when the agent's cancellation stopped it. */
  | 'cancelled'
  | 'told'
  | 'dismissed'
  | 'lost';

export type AskEvent =
  /** The ask went out to the daemon. */
  | 'send'
  /** The other side agreed (resolved the request, granted the proposal). */
  | 'yes'
  /** The other side refused (rejected it, with a reason). */
  | 'no'
  /** The connection to the daemon broke before an answer came. */
  | 'disconnect'
  /** After a restart, its own copy is not in the inbox: how it ended is unknown. */
  | 'copy-gone'
  /** The call its yes started was stopped by the agent's cancellation (it knows how it ended). */
  | 'cancel'
  /** Its outcome is queued for the model (and kept in the store). */
  | 'tell'
  /** Its own copy in the inbox is dismissed. */
  | 'dismiss';

export type AskEffect =
  /** Nothing to do beyond the new state. */
  | 'none'
  /** Act on the yes: run the call or the code, or tell the answer. */
  | 'act'
  /** Tell the refusal. */
  | 'refuse'
  /** Keep waiting: follow the ask's own copy, or leave it to the next run. */
  | 'wait'
  /** Tell the model the ask's end is unknown. */
  | 'tell-lost'
  /** The event changes nothing (a second answer, an answer after stopping). */
  | 'ignore';

export interface AskStep {
  state: AskState;
  effect: AskEffect;
}

const waiting = (state: AskState): boolean => state === 'made' || state === 'sent';

/** The next state of an ask, and what its owner must do. */
export const nextAsk = (state: AskState, event: AskEvent, serving: boolean): AskStep => {
  const ignored: AskStep = { state, effect: 'ignore' };
  if (!serving) return ignored;
  if (event === 'send') return state === 'made' ? { state: 'sent', effect: 'none' } : ignored;
  if (event === 'dismiss')
    return state === 'told' ? { state: 'dismissed', effect: 'none' } : ignored;
  // The stopping run's last word on a call it was running: the next run tells it so (issue 45).
  if (event === 'cancel')
    return state === 'settled' ? { state: 'cancelled', effect: 'none' } : ignored;
  if (event === 'tell')
    return state === 'settled' || state === 'lost' || state === 'cancelled'
      ? { state: 'told', effect: 'none' }
      : ignored;
  if (!waiting(state)) return ignored;
  if (event === 'yes') return { state: 'settled', effect: 'act' };
  if (event === 'no') return { state: 'settled', effect: 'refuse' };
  if (event === 'copy-gone') return { state: 'lost', effect: 'tell-lost' };
  return { state, effect: 'wait' };
};
harden(nextAsk);

/**
 * Whether an ask in this state is pending: kept in the agent's store, and
 * keeping the message it was made for answerable (a settled ask is pending
 * until its outcome is told: an approved call is still running, or was stopped by a cancellation).
 */
export const isPending = (state: AskState): boolean =>
  waiting(state) || state === 'settled' || state === 'cancelled';
harden(isPending);
