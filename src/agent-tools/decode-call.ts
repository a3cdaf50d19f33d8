/**
 * A tool call decoded once, before anything judges or runs it: its
 * arguments read by decodeArguments (so trimmed, a byte-order mark dropped,
 * double-encoded JSON unwrapped), secret values redacted, and a grouped
 * built-in resolved to its group and op, whether it was called as the group
 * (`names` with `op`) or by the op's former tool name (`makeDirectory`),
 * and a built-in's arguments validated against its one definition
 * (src/agent-tools/builtin-schemas.ts, the schema the model was offered) into the
 * values it runs with. The repeat guard, the policy, the HOST's approval request and the tool
 * all see this one value (docs/architecture.md, "A call from decoding to
 * running"), so no two of them can read the same call differently. A call
 * whose arguments or op cannot be read, or whose arguments do not fit its
 * tool, is refused (its names kept, so a denied op is still told as denied)
 * and never runs.
 */
import type { JsonSchema, ToolCall } from '../../providers/types.js';
import { redactStrings } from '../log/agent-output.js';
import type { Args } from './read-args.js';
import { BUILTIN_NAMES, type BuiltinCall } from './builtin-schemas.js';
import { checkFaeArguments } from './check-fae-arguments.js';
import { groupedCall, groupOfOp, type GroupedCall } from './tool-groups.js';
import { validatedCall, type ToolValues } from './validate-arguments.js';
import { decodeArguments } from '../encoding/decode-arguments.js';
import { describeError } from '../../providers/describe-error.js';

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
  /** The arguments as decoded, secrets redacted: what the HOST is shown and keyed on. */
  args: Args;
  /** What the tool runs with: a built-in's validated values (its readers' forms), else `args`. */
  values: ToolValues;
  /** A built-in's op and those values typed by its record (undefined for a FaeTool). */
  builtin: BuiltinCall | undefined;
  /** Its group and op, for a grouped built-in. */
  grouped: GroupedCall | undefined;
}

interface UndecodableCall extends Decoding {
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
            .map(key => [key, Reflect.get(item, key)]),
        )
      : item,
  );

export const decodeCall = (
  call: ToolCall,
  redact: (text: string) => string,
  /** The parameters a FaeTool of this name declared, when there is one. */
  faeParameters: (name: string) => JsonSchema | undefined = () => undefined,
): CallDecoding => {
  const group = groupOfOp(call.name);
  const refuse = (error: string, names?: readonly string[]): UndecodableCall => ({
    ok: false,
    call,
    error,
    names: names ?? (group === undefined ? [call.name] : [call.name, group]),
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
    return refuse(describeError(error));
  }
  const names = grouped === undefined ? [call.name] : [grouped.op, grouped.group];
  let builtin: BuiltinCall | undefined;
  if (BUILTIN_NAMES.has(call.name)) {
    try {
      builtin = validatedCall(grouped?.group ?? call.name, grouped?.op, args);
    } catch (error) {
      return refuse(describeError(error), names);
    }
  } else {
    const parameters = faeParameters(call.name);
    const misfit = parameters === undefined ? undefined : checkFaeArguments(parameters, args);
    if (misfit !== undefined) return refuse(`${call.name}: ${misfit}`, names);
  }
  return {
    ok: true,
    call,
    args,
    values: builtin?.values ?? args,
    builtin,
    grouped,
    names,
    key: `${call.name}\u0000${canonical(args)}`,
  };
};
harden(decodeCall);
