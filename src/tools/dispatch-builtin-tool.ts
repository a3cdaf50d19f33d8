/**
 * Runs one built-in tool: one `switch` from the tool's name to its group's
 * own switch (./groups/), with the values its arguments were validated into
 * (./validate-arguments.ts). A grouped call
 * runs the op its decoding resolved (src/encoding/decode-call.ts), the one
 * the policy judged, whether it was called as the group or by the op's
 * former tool name (`list`, `dismiss`). Errors of a grouped op name the op,
 * and an error about a name that does not exist says what would have been
 * right (./explain-failure.ts).
 */
import { makeError, q, X } from '@endo/errors';
import type { BuiltinContext } from './builtin-context.js';
import { explainFailure } from './explain-failure.js';
import { runEvaluate } from './groups/evaluate.js';
import { runMailOp } from './groups/mail.js';
import { runMessageTool } from './groups/messages.js';
import { runNamesOp } from './groups/names.js';
import { readScheduleArgs } from '../schedule/wake-ups.js';
import type { GroupedCall } from './tool-groups.js';
import type { ToolValues } from './validate-arguments.js';
import { describeError } from '../../providers/describe-error.js';

// eslint-disable-next-line @endo/harden-exports -- a type: nothing at run time to harden
export type { BuiltinContext, Speak } from './builtin-context.js';

const runGroupOp = async (
  { group, op }: GroupedCall,
  values: ToolValues,
  context: BuiltinContext,
): Promise<unknown> => {
  try {
    switch (group) {
      case 'names':
        return await runNamesOp(op, values, context);
      case 'mail':
        return await runMailOp(op, values, context);
      default:
        throw makeError(X`Unknown tool group ${q(group)}`);
    }
  } catch (error) {
    throw new Error(`${op}: ${describeError(error)}`, {
      cause: error,
    });
  }
};

const runBuiltin = async (
  name: string,
  /** The call's values, validated against the tool's definition (./validate-arguments.ts). */
  values: ToolValues,
  grouped: GroupedCall | undefined,
  context: BuiltinContext,
): Promise<unknown> => {
  if (grouped !== undefined) return runGroupOp(grouped, values, context);
  switch (name) {
    case 'reply':
    case 'send':
      return runMessageTool(name, values, context);
    case 'evaluate':
      return runEvaluate(values, context);
    case 'schedule':
      if (context.wakeUps === undefined) throw new Error('Wake-ups are not available here');
      return context.wakeUps.schedule(readScheduleArgs(values), context.origin);
    default:
      // Reached only when a built-in definition (BUILTIN_NAMES) has no case here.
      throw makeError(X`Unknown tool ${q(name)}`);
  }
};

export const dispatchBuiltinTool = async (
  name: string,
  values: ToolValues,
  grouped: GroupedCall | undefined,
  context: BuiltinContext,
): Promise<unknown> => {
  try {
    return await runBuiltin(name, values, grouped, context);
  } catch (error) {
    throw await explainFailure(error, name, values, grouped, context);
  }
};
harden(dispatchBuiltinTool);
