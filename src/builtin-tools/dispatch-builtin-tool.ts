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
import { farOf } from '../daemon/far-ref.js';
import { runEvaluate } from './groups/evaluate.js';
import { adoptTool, listMessages, requestValue } from './groups/mail.js';
import { runReply, runSend } from './groups/messages.js';
import { inspectCapability, listNames, makeDirectory } from './groups/names.js';
import type { BuiltinCall } from '../agent-tools/builtin-schemas.js';
import { readMessageHistory } from '../mail/message-history.js';
import { readScheduleArgs } from '../schedule/wake-ups.js';
import { isGroup, TOOL_GROUPS, type GroupedCall } from '../agent-tools/tool-groups.js';
import { describeError } from '../../providers/describe-error.js';

// eslint-disable-next-line @endo/harden-exports -- a type: nothing at run time to harden
export type { BuiltinContext, Speak } from './builtin-context.js';

/**
 * The one switch over every built-in tool and op, with the values its
 * record read. `op` is the union of their names, so a name added to a
 * record and missing here fails to compile at the `never` below.
 */
const runOp = async ({ op, values }: BuiltinCall, context: BuiltinContext) => {
  const powers = farOf(context.powers);
  switch (op) {
    case 'reply':
      return runReply(values, context);
    case 'send':
      return runSend(values, context);
    case 'evaluate':
      return runEvaluate(values, context);
    case 'schedule':
      if (context.wakeUps === undefined) throw new Error('Wake-ups are not available here');
      return context.wakeUps.schedule(readScheduleArgs(values), context.origin, context.read?.());
    case 'list':
      return listNames(context, values.path);
    case 'has':
      return powers.has(...values.path);
    case 'lookup':
      return powers.lookup(values.path);
    case 'identify':
      return powers.identify(...values.path);
    case 'inspectCapability':
      return inspectCapability(context, values.path);
    case 'remove': {
      const { path } = values;
      await powers.remove(...path);
      return harden({ removed: path });
    }
    case 'move': {
      const { path, to } = values;
      await powers.move(path, to);
      return harden({ moved: path, to });
    }
    case 'copy': {
      const { path, to } = values;
      await powers.copy(path, to);
      return harden({ copied: path, to });
    }
    case 'makeDirectory':
      return makeDirectory(context, values.path);
    case 'store': {
      const { path, value } = values;
      await powers.storeValue(harden(value), path);
      return harden({ stored: path });
    }
    case 'help':
      return powers.help(values.methodName);
    case 'listMessages':
      return listMessages(context);
    case 'request':
      return requestValue(context, values);
    case 'dismiss': {
      const number = values.messageNumber;
      await powers.dismiss(number);
      return harden({ dismissed: number });
    }
    case 'adopt': {
      const { messageNumber, edgeName, petName } = values;
      await powers.adopt(messageNumber, edgeName, petName);
      return harden({ adopted: petName });
    }
    case 'adoptTool':
      return adoptTool(context, values);
    case 'resolve': {
      const { messageNumber, path } = values;
      await powers.resolve(messageNumber, path);
      return harden({ resolved: messageNumber });
    }
    case 'reject': {
      const { messageNumber, reason } = values;
      await powers.reject(messageNumber, reason);
      return harden({ rejected: messageNumber });
    }
    case 'messageHistory':
      return readMessageHistory(context.powers, values.messageNumber);
    case 'recall':
      if (context.recall === undefined) throw new Error('no conversation is kept here to search');
      return context.recall(values.query);
    case 'helper':
      if (context.helpers === undefined) throw new Error('no helper can be made here');
      return context.helpers({ task: values.description, grant: values.grant });
    default: {
      // Reached only when a name is no built-in's: the compiler holds every record to a case.
      const unknown: never = op;
      throw makeError(X`Unknown tool ${q(unknown)}`);
    }
  }
};

/** A grouped call runs its op, and its error names the op (`move: …`). */
const runBuiltin = async (
  /** The call's op and values, validated against its record (src/agent-tools/validate-arguments.ts). */
  call: BuiltinCall,
  grouped: GroupedCall | undefined,
  context: BuiltinContext,
): Promise<unknown> => {
  if (grouped === undefined) return runOp(call, context);
  const { group, op } = grouped;
  try {
    // Invariants: groupedCall (./tool-groups.ts) let through only a group's own ops.
    isGroup(group) || Fail`Unknown tool group ${q(group)}`;
    (TOOL_GROUPS[group] ?? []).includes(op) || Fail`${b(group)} has no op ${q(op)}`;
    return await runOp(call, context);
  } catch (error) {
    throw new Error(`${op}: ${describeError(error)}`, { cause: error });
  }
};

export const dispatchBuiltinTool = async (
  /** The name the model called it by (a group's, or an op's former tool name). */
  name: string,
  call: BuiltinCall,
  grouped: GroupedCall | undefined,
  context: BuiltinContext,
): Promise<unknown> => {
  try {
    return await runBuiltin(call, grouped, context);
  } catch (error) {
    throw await explainFailure(error, name, call.values, grouped, context);
  }
};
harden(dispatchBuiltinTool);
