/**
 * A tool call decoded once, before anything judges or runs it: its
 * arguments read by decodeArguments (so trimmed, a byte-order mark dropped,
 * double-encoded JSON unwrapped), secret values redacted, and a grouped
 * built-in resolved to its group and op, whether it was called as the group
 * (`names` with `op`) or by the op's former tool name (`makeDirectory`).
 * The repeat guard, the policy, the HOST's approval request and the tool
 * all see this one value (docs/architecture.md, "A call from decoding to
 * running"), so no two of them can read the same call differently. A call
 * whose arguments or op cannot be read is refused here and never runs.
 */
import type { ToolCall } from '../../providers/types.js';
import { redactStrings } from '../agent-output.js';
import type { Args } from '../tools/read-args.js';
import { groupedCall, groupOfOp, type GroupedCall } from '../tools/tool-groups.js';
import { decodeArguments } from './decode-arguments.js';

interface Decoding {
  /** The call as the model wrote it. */
  call: ToolCall;
  /** The names the policy knows the call by, most specific first: its op and group, or its name. */
  names: readonly string[];
  /** Equal for calls of the same tool with the same arguments (the repeat guard's key). */
  key: string;
}

export interface DecodedCall extends Decoding {
  ok: true;
  /** The arguments every step sees and the tool gets, secrets redacted. */
  args: Args;
  /** Its group and op, for a grouped built-in. */
  grouped: GroupedCall | undefined;
}

export interface UndecodableCall extends Decoding {
  ok: false;
  /** Why it cannot run, for the model. */
  error: string;
}

export type CallDecoding = DecodedCall | UndecodableCall;

/** JSON with object keys sorted, so spacing and key order do not make two calls differ. */
const canonical = (value: unknown): string =>
  JSON.stringify(value, (_key, item: unknown) =>
    item !== null && typeof item === 'object' && !Array.isArray(item)
      ? Object.fromEntries(
          Object.keys(item)
            .sort()
            .map(key => [key, (item as Record<string, unknown>)[key]]),
        )
      : item,
  );

export const decodeCall = (call: ToolCall, redact: (text: string) => string): CallDecoding => {
  const group = groupOfOp(call.name);
  const refuse = (error: string): UndecodableCall => ({
    ok: false,
    call,
    error,
    names: group === undefined ? [call.name] : [call.name, group],
    key: `${call.name}\u0000${call.arguments.trim()}`,
  });
  const decoded = decodeArguments(call.arguments);
  if (!decoded.ok) return refuse(decoded.error);
  const args: Args = harden(redactStrings(decoded.args, redact));
  let grouped: GroupedCall | undefined;
  try {
    grouped = groupedCall(call.name, args);
  } catch (error) {
    // A group whose op is missing or not its own: no policy could judge it, so it never runs.
    return refuse(error instanceof Error ? error.message : String(error));
  }
  return {
    ok: true,
    call,
    args,
    grouped,
    names: grouped === undefined ? [call.name] : [grouped.op, grouped.group],
    key: `${call.name}\u0000${canonical(args)}`,
  };
};
