/**
 * Runs one built-in tool: one `switch` over every tool and op name (the
 * union the records of ./builtin-schemas.ts make), with the values its
 * arguments were validated into (./validate-arguments.ts); the longer ops'
 * code is in ./groups/. A grouped call
 * runs the op its decoding resolved (src/agent-tools/decode-call.ts), the one
 * the policy judged, whether it was called as the group or by the op's
 * former tool name (`list`, `dismiss`). Errors of a grouped op name the op,
 * and an error about a name that does not exist says what would have been
 * right (./explain-failure.ts).
 */
import { b, Fail, makeError, q, X } from '@endo/errors';
import type { BuiltinContext } from './builtin-context.js';
import { explainFailure } from './explain-failure.js';
import { E } from '@endo/far';
import { runEvaluate } from './groups/evaluate.js';
import { adoptTool, listMessages, requestValue } from './groups/mail.js';
import { runMessageTool } from './groups/messages.js';
import { inspectCapability, listNames, makeDirectory } from './groups/names.js';
import { type BuiltinOp } from '../agent-tools/builtin-schemas.js';
import { readMessageHistory } from '../mail/message-history.js';
import { readScheduleArgs } from '../schedule/wake-ups.js';
import { isGroup, TOOL_GROUPS, type GroupedCall } from '../agent-tools/tool-groups.js';
import type { ToolValues } from '../agent-tools/validate-arguments.js';
import { describeError } from '../../providers/describe-error.js';

// eslint-disable-next-line @endo/harden-exports -- a type: nothing at run time to harden
export type { BuiltinContext, Speak } from './builtin-context.js';

/**
 * The one switch over every built-in tool and op, with the values its
 * record read. `op` is the union of their names, so a name added to a
 * record and missing here fails to compile at the `never` below.
 */
const runOp = async (op: BuiltinOp, values: ToolValues, context: BuiltinContext) => {
  const powers = E(context.powers);
  const path = values.path as string[];
  const to = values.to as string[];
  const number = values.messageNumber as bigint;
  switch (op) {
    case 'reply':
    case 'send':
      return runMessageTool(op, values, context);
    case 'evaluate':
      return runEvaluate(values, context);
    case 'schedule':
      if (context.wakeUps === undefined) throw new Error('Wake-ups are not available here');
      return context.wakeUps.schedule(readScheduleArgs(values), context.origin, context.read?.());
    case 'list':
      return listNames(context, path);
    case 'has':
      return powers.has(...path);
    case 'lookup':
      return powers.lookup(path);
    case 'identify':
      return powers.identify(...path);
    case 'inspectCapability':
      return inspectCapability(context, path);
    case 'remove':
      await powers.remove(...path);
      return harden({ removed: path });
    case 'move':
      await powers.move(path, to);
      return harden({ moved: path, to });
    case 'copy':
      await powers.copy(path, to);
      return harden({ copied: path, to });
    case 'makeDirectory':
      return makeDirectory(context, path);
    case 'store':
      await powers.storeValue(harden(values.value), path);
      return harden({ stored: path });
    case 'help':
      return powers.help(values.methodName as string | undefined);
    case 'listMessages':
      return listMessages(context);
    case 'request':
      return requestValue(context, values);
    case 'dismiss':
      await powers.dismiss(number);
      return harden({ dismissed: number });
    case 'adopt': {
      const petName = values.petName as string[];
      await powers.adopt(number, values.edgeName as string, petName);
      return harden({ adopted: petName });
    }
    case 'adoptTool':
      return adoptTool(context, values);
    case 'resolve':
      await powers.resolve(number, path);
      return harden({ resolved: number });
    case 'reject':
      await powers.reject(number, values.reason as string | undefined);
      return harden({ rejected: number });
    case 'messageHistory':
      return readMessageHistory(context.powers, number);
    case 'recall':
      if (context.recall === undefined) throw new Error('no conversation is kept here to search');
      return context.recall(values.query as string);
    case 'helper':
      if (context.helpers === undefined) throw new Error('no helper can be made here');
      return context.helpers({
        task: values.description as string,
        grant: values.grant as string[],
      });
    default: {
      // Reached only when a name is no built-in's: the compiler holds every record to a case.
      const unknown: never = op;
      throw makeError(X`Unknown tool ${q(unknown)}`);
    }
  }
};

/** A grouped call runs its op, and its error names the op (`move: …`). */
const runBuiltin = async (
  name: string,
  /** The call's values, validated against the tool's definition (./validate-arguments.ts). */
  values: ToolValues,
  grouped: GroupedCall | undefined,
  context: BuiltinContext,
): Promise<unknown> => {
  if (grouped === undefined) return runOp(name as BuiltinOp, values, context);
  const { group, op } = grouped;
  try {
    // Invariants: groupedCall (./tool-groups.ts) let through only a group's own ops.
    isGroup(group) || Fail`Unknown tool group ${q(group)}`;
    (TOOL_GROUPS[group] ?? []).includes(op) || Fail`${b(group)} has no op ${q(op)}`;
    return await runOp(op as BuiltinOp, values, context);
  } catch (error) {
    throw new Error(`${op}: ${describeError(error)}`, { cause: error });
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
