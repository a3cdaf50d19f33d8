/**
 * The loop's two named hooks around a tool call (as pi-mono's agent loop offers them): the
 * policy's seam before a call (src/policy/guard-tool-call.ts) and what is noted after one ran.
 * The loop owns the step: it asks `beforeToolCall`, runs the call itself or answers with what
 * the hook said instead, and tells `afterToolCall`; a call the HOST approves later runs through
 * the same step (`later`), under the same time limit and events, but is not told after.
 */
import type { CallDecoding, DecodedCall } from '../agent-tools/decode-call.js';

export interface ToolCallHooks {
  /**
   * Asked before a call runs: the text the model sees instead (a refusal, a pending approval),
   * or undefined to run it now. `later` runs it as the loop would, for an approval given after.
   */
  beforeToolCall?: (
    call: CallDecoding,
    step: { offered: readonly string[]; later: () => Promise<string> },
  ) => Promise<string | undefined>;
  /** Told after a decoded call ran (the taint rule notes what its result brought in). */
  afterToolCall?: (call: DecodedCall) => void;
}

/**
 * Whether what the model sees instead of a call is an approval asked of the HOST: the daemon's
 * `pending` answer (src/asks/approval-gate.ts), not a refusal.
 */
const waitsForApproval = (instead: string): boolean => {
  try {
    return (JSON.parse(instead) as { status?: unknown } | null)?.status === 'pending';
  } catch {
    return false;
  }
};

/**
 * One call through the hooks: answered instead, or run by `run` and told after. `asked` is told
 * of a call put to the HOST for approval (the log's turn line names it: src/log/turn-lines.ts).
 */
export const throughHooks = async (
  call: CallDecoding,
  offered: readonly string[],
  hooks: ToolCallHooks,
  run: (call: CallDecoding) => Promise<string>,
  asked?: (call: CallDecoding) => void,
): Promise<string> => {
  const runIt = async () => {
    const text = await run(call);
    if (call.ok) hooks.afterToolCall?.(call);
    return text;
  };
  // Run later, its result is not this turn's to read: it comes back as an outcome, which a turn
  // reads (and is labelled by) when it is shown (src/serving/notice-turns.ts). Told after, it
  // would label the turn that asked, long ended, and every later turn that shows it.
  const instead = await hooks.beforeToolCall?.(call, { offered, later: () => run(call) });
  if (instead === undefined) return runIt();
  if (waitsForApproval(instead)) asked?.(call);
  return instead;
};
harden(throughHooks);
