/**
 * The policy's seam before a tool runs, the loop's `beforeToolCall` and `afterToolCall` hooks
 * (src/loop/tool-call-hooks.ts, as pi's), judging
 * the call as decoded once (src/agent-tools/decode-call.ts): a call that could
 * not be decoded never runs; a tool or op the policy does not allow is
 * refused (the model may name one it was not offered, or write an op's
 * arguments oddly); a call that would touch what the model may not
 * (./store-boundary.ts) is refused; a call that needs the HOST's approval
 * (LAL_TOOLS_CONFIRM, LAL_TOOLS_APPROVE, or the taint rule of ./side-effects.ts
 * once the turn has read untrusted content) is put to the HOST whole (./describe-call.ts),
 * with the one reason that made it ask,
 * instead of running now, unless the HOST already approved exactly this
 * call across a restart. What a call that runs brings into the turn is
 * noted in the turn's taint (./turn-taint.ts).
 */
import { renderError } from '../encoding/render-for-model.js';
import type { CallDecoding, DecodedCall } from '../agent-tools/decode-call.js';
import { unknownToolText } from '../agent-tools/unknown-tool.js';
import type { Origin } from '../mail/origin.js';
import { describeCall, digestOfCall } from './describe-call.js';
import type { ToolPolicy } from './tool-policy.js';
import type { StoreBoundary } from './store-boundary.js';
import type { CallParties } from './call-parties.js';
import { effectOf, untrustedRead, whyAskHost } from './side-effects.js';
import type { TurnTaint } from './turn-taint.js';

export interface ApprovalAsk {
  /** What is to be done, whole (the HOST approves what it reads): `runCommand {"command":"ls"}`. */
  action: string;
  /** The digest of `action`, which keys the allowance a yes after a restart leaves. */
  digest: string;
  /** The message being served when it was asked for. */
  origin: Origin | undefined;
  /** Does it, once approved; returns what the model should see. */
  run: () => Promise<string>;
  /** Why the HOST is asked: the setting that asks, or the taint rule and what the turn read (behaviour 9.10). */
  why?: string;
  /** Who asks, when not the agent itself: its helper, named with its task (behaviour 7.9). */
  by?: string;
}

/**
 * What the seam needs of the HOST's approvals (src/asks/approval-gate.ts keeps them): stated here,
 * below the asks, so that the policy imports nothing above it (docs/architecture.md, "Layers").
 */
export interface ApprovalSeam {
  ask(request: ApprovalAsk): Readonly<Record<string, unknown>>;
  /** Whether the HOST approved the action of this digest before a restart and it has not run since (taken once). */
  takeAllowance(digest: string): boolean;
}

export const guardToolCall = (options: {
  policy: ToolPolicy;
  gate: ApprovalSeam;
  origin: Origin | undefined;
  /** What no call may touch: the agent's own store, the names that grant trust, tools/ (behaviour 9.6, 9.7). */
  boundary?: Pick<StoreBoundary, 'refusal'>;
  /** What this turn has read that did not come from the HOST, and whom a call reaches (behaviour 9.10). */
  taint?: { turn: TurnTaint; parties: CallParties };
  /** Whether the turn's facet holds the tool a call names (src/parties/facets.ts): one it does not is no tool at all. */
  holds?: (names: readonly string[]) => boolean;
  /** What of the agent's own a call gives (./powers-given.ts), and whether the turn is the HOST's, which may ask for it. */
  gives?: { given(call: DecodedCall): Promise<string | undefined>; hostTurn: boolean };
}) => ({
  /** The loop's `beforeToolCall` (src/loop/tool-call-hooks.ts): what the model sees instead of the call running now, if anything. */
  beforeToolCall: async (
    call: CallDecoding,
    { offered, later }: { offered: readonly string[]; later: () => Promise<string> },
  ): Promise<string | undefined> => {
    const { policy, gate, origin, boundary, taint, holds, gives } = options;
    // Not in the facet: not there, whatever the policy or the HOST's approval would say of it.
    if (holds !== undefined && !holds(call.names))
      return renderError(new Error(unknownToolText(call.names[0] ?? call.call.name, offered)));
    // Judged by the names it could be read under, so a denied op is told as denied whatever else is wrong with it.
    if (!policy.allows(call.names)) return renderError(new Error(policy.refusal(call.names)));
    // Run, and answered with its own error: nothing to judge, nothing to ask the HOST.
    if (!call.ok) return undefined;
    const outOfReach = await boundary?.refusal(call);
    if (outOfReach !== undefined) return renderError(new Error(outOfReach));
    const given = await gives?.given(call);
    if (given !== undefined && gives?.hostTurn !== true)
      return renderError(
        new Error(
          `${given} is not this turn's to give: only a turn of the HOST's may, with its approval`,
        ),
      );
    // What asks is named, never another rule: a setting that asks whatever the turn read is the reason then.
    const why =
      given === undefined
        ? (policy.whyAsked(call.names, origin?.sender) ??
          (await taintedWhy(call, policy, origin, taint)))
        : `it gives ${given}, which only the HOST's approval of this very call allows`;
    if (why === undefined) return undefined;
    const action = describeCall(call);
    const digest = digestOfCall(action);
    // Approved while the agent was restarting: this one call runs without asking again.
    if (gate.takeAllowance(digest)) return undefined;
    return JSON.stringify(gate.ask({ action, digest, origin, run: later, why }));
  },
  /** The loop's `afterToolCall`: what a call that ran brought into the turn is noted in its taint. */
  afterToolCall: (call: DecodedCall): void => {
    const read = untrustedRead(call);
    if (read !== undefined) options.taint?.turn.note(read);
  },
});
harden(guardToolCall);

/** Why the taint rule asks the HOST about this call, if it does. */
const taintedWhy = async (
  call: DecodedCall,
  policy: ToolPolicy,
  origin: Origin | undefined,
  taint: { turn: TurnTaint; parties: CallParties } | undefined,
): Promise<string | undefined> => {
  if (taint === undefined) return undefined;
  const read = taint.turn.read();
  if (read === undefined) return undefined;
  const effect = effectOf(call);
  return whyAskHost({
    read,
    peerTurn: taint.turn.peerTurn,
    gated: policy.needsApproval(call.names, undefined),
    effect,
    party: effect === undefined ? undefined : await taint.parties.partyOf(effect, origin),
  });
};
