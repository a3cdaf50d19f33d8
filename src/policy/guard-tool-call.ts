/**
 * The policy's seam before a tool runs: a tool the policy does not allow
 * is refused (the model may name one it was not offered), and a call that
 * needs the HOST's approval is put to the HOST instead of running now.
 * Secret values in the arguments are redacted first, whatever runs them.
 */
import type { ToolCall } from '../../providers/types.js';
import { renderError } from '../encoding/render-for-model.js';
import type { Origin } from '../notices.js';
import type { ApprovalGate } from './approval-gate.js';
import { redactCallArguments } from './redact-call-arguments.js';
import type { ToolPolicy } from './tool-policy.js';
import { callNamesOf } from '../tools/tool-groups.js';

const ARGUMENTS_PREVIEW_CHARS = 400;

export const guardToolCall =
  (options: {
    policy: ToolPolicy;
    gate: ApprovalGate;
    origin: Origin | undefined;
    /** Hides secret values (the auth tokens). */
    redact: (text: string) => string;
    run: (call: ToolCall, offered: readonly string[]) => Promise<string>;
  }) =>
  async (asked: ToolCall, offered: readonly string[]): Promise<string> => {
    const { policy, gate, origin, run } = options;
    const call = redactCallArguments(asked, options.redact);
    // A grouped built-in is judged by its op and its group (`remove`, `names`).
    const names = callNamesOf(call.name, call.arguments);
    if (!policy.allows(names)) return renderError(new Error(policy.refusal(names)));
    if (!policy.needsApproval(names, origin?.sender)) return run(call, offered);
    const args =
      call.arguments.length > ARGUMENTS_PREVIEW_CHARS
        ? `${call.arguments.slice(0, ARGUMENTS_PREVIEW_CHARS)}…`
        : call.arguments;
    const action = `${call.name} ${args}`;
    // Approved while the agent was restarting: this one call runs without asking again.
    if (gate.takeAllowance(action)) return run(call, offered);
    return JSON.stringify(gate.ask({ action, origin, run: () => run(call, offered) }));
  };
