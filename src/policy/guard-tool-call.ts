/**
 * The policy's seam before a tool runs (as pi's `beforeToolCall`), judging
 * the call as decoded once (src/encoding/decode-call.ts): a call that could
 * not be decoded never runs; a tool or op the policy does not allow is
 * refused (the model may name one it was not offered, or write an op's
 * arguments oddly); a call that needs the HOST's approval is put to the HOST
 * whole (./describe-call.ts) instead of running now, unless the HOST already
 * approved exactly this call across a restart. A call that would touch what
 * the model may not (./store-boundary.ts) is refused before anything else.
 */
import { renderError } from '../encoding/render-for-model.js';
import type { CallDecoding, DecodedCall } from '../encoding/decode-call.js';
import type { Origin } from '../serving/notices.js';
import type { ApprovalGate } from '../asks/approval-gate.js';
import { describeCall, digestOfCall } from './describe-call.js';
import type { ToolPolicy } from './tool-policy.js';
import type { StoreBoundary } from './store-boundary.js';

export const guardToolCall =
  (options: {
    policy: ToolPolicy;
    gate: ApprovalGate;
    origin: Origin | undefined;
    /** What no call may touch: the agent's own store, the names that grant trust, tools/ (behaviour 9.6, 9.7). */
    boundary?: StoreBoundary;
    /** Runs a decoded call, or answers one that could not be decoded with its error. */
    run: (call: CallDecoding, offered: readonly string[]) => Promise<string>;
  }) =>
  async (call: CallDecoding, offered: readonly string[]): Promise<string> => {
    const { policy, gate, origin, run, boundary } = options;
    // Judged by the names it could be read under, so a denied op is told as denied whatever else is wrong with it.
    if (!policy.allows(call.names)) return renderError(new Error(policy.refusal(call.names)));
    if (!call.ok) return run(call, offered);
    const outOfReach = await boundary?.refusal(call);
    if (outOfReach !== undefined) return renderError(new Error(outOfReach));
    if (!policy.needsApproval(call.names, origin?.sender)) return run(call, offered);
    const action = describeCall(call);
    const digest = digestOfCall(action);
    const runIt = (decoded: DecodedCall) => run(decoded, offered);
    // Approved while the agent was restarting: this one call runs without asking again.
    if (gate.takeAllowance(digest)) return runIt(call);
    return JSON.stringify(gate.ask({ action, digest, origin, run: () => runIt(call) }));
  };
harden(guardToolCall);
