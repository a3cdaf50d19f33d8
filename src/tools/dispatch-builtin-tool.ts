/**
 * Runs one built-in tool: one `switch` from the tool's name to its group's
 * own switch (./groups/), each op's arguments checked there. A grouped call
 * runs the op its decoding resolved (src/encoding/decode-call.ts), the one
 * the policy judged, whether it was called as the group or by the op's
 * former tool name (`list`, `dismiss`). Errors of a grouped op name the op.
 */
import type { BuiltinContext } from './builtin-context.js';
import { runEvaluate } from './groups/evaluate.js';
import { runMailOp } from './groups/mail.js';
import { runMessageTool } from './groups/messages.js';
import { runNamesOp } from './groups/names.js';
import { readScheduleArgs } from '../schedule/wake-ups.js';
import type { Args } from './read-args.js';
import type { GroupedCall } from './tool-groups.js';

export type { BuiltinContext, Speak } from './builtin-context.js';

const runGroupOp = async (
  { group, op, args }: GroupedCall,
  context: BuiltinContext,
): Promise<unknown> => {
  try {
    switch (group) {
      case 'names':
        return await runNamesOp(op, args, context);
      case 'mail':
        return await runMailOp(op, args, context);
      default:
        throw new Error(`Unknown tool group "${group}"`);
    }
  } catch (error) {
    throw new Error(`${op}: ${error instanceof Error ? error.message : String(error)}`, {
      cause: error,
    });
  }
};

export const dispatchBuiltinTool = async (
  name: string,
  args: Args,
  grouped: GroupedCall | undefined,
  context: BuiltinContext,
): Promise<unknown> => {
  if (grouped !== undefined) return runGroupOp(grouped, context);
  switch (name) {
    case 'reply':
    case 'send':
      return runMessageTool(name, args, context);
    case 'evaluate':
      return runEvaluate(args, context);
    case 'schedule':
      if (context.wakeUps === undefined) throw new Error('Wake-ups are not available here');
      return context.wakeUps.schedule(readScheduleArgs(args), context.origin);
    default:
      throw new Error(`Unknown tool "${name}"`);
  }
};
