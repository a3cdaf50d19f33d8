/**
 * The `mail` tool's ops: the inbox (listMessages, dismiss, adopt,
 * adoptTool, messageHistory), requests (request a value of someone;
 * resolve or reject a request message), and recall (search the whole
 * conversation kept in the store, src/recall/). `reply` and `send` are tools of
 * their own (./messages.ts).
 */
import { E } from '@endo/far';
import { readMessageHistory } from '../../daemon/message-history.js';
import { compactMessage } from '../../mail/compact-message.js';
import type { MessageRecord } from '../../mail/message-record.js';
import type { BuiltinContext } from '../builtin-context.js';
import { TOOLS_DIRECTORY } from '../fae-tool-registry.js';
import {
  readMessageNumber,
  readOptionalString,
  readPath,
  readString,
  type Args,
} from '../read-args.js';
import { keyIn } from './arg-keys.js';

/**
 * A mailed tool that cannot be offered leaves tools/ again, and whoever
 * mailed it hears why (the model may not pass it on); the model gets the
 * reason as the call's error.
 */
const refuseAdoption = async (
  context: BuiltinContext,
  number: bigint,
  edgeName: string,
  toolName: string,
  reason: string,
): Promise<never> => {
  await Promise.resolve(E(context.powers).remove(TOOLS_DIRECTORY, toolName)).catch(() => {});
  const told = await Promise.resolve(
    E(context.powers).reply(
      number,
      [`I did not adopt "${edgeName}" as a tool: ${reason}.`],
      [],
      [],
    ),
  ).then(
    () => true,
    () => false,
  );
  throw new Error(`not adopted: ${reason}${told ? '; the sender was told' : ''}`);
};

const adoptTool = async (context: BuiltinContext, args: Args): Promise<unknown> => {
  const number = readMessageNumber(args);
  const toolName = readString(args, 'toolName');
  if (toolName.includes('/')) throw new Error('toolName must be one pet name, without "/"');
  const edgeName = readString(args, 'edgeName');
  await E(context.powers).adopt(number, edgeName, [TOOLS_DIRECTORY, toolName]);
  await context.tools.refresh({ force: true });
  const refusal = context.tools.refusal(toolName);
  const adopted = context.tools
    .schemas()
    .find(schema => context.tools.find(schema.function.name)?.petName === toolName);
  if (adopted === undefined) {
    return refuseAdoption(
      context,
      number,
      edgeName,
      toolName,
      refusal ?? 'it is not a usable FaeTool',
    );
  }
  return harden({
    adopted: `${TOOLS_DIRECTORY}/${toolName}`,
    callAs: adopted.function.name,
    description: adopted.function.description,
  });
};

const listMessages = async (context: BuiltinContext): Promise<unknown> => {
  const messages = (await E(context.powers).listMessages()) as MessageRecord[];
  return harden(
    await Promise.all(messages.map(message => compactMessage(message, context.nameOf))),
  );
};

export const runMailOp = async (
  op: string,
  args: Args,
  context: BuiltinContext,
): Promise<unknown> => {
  const powers = E(context.powers);
  switch (op) {
    case 'listMessages':
      return listMessages(context);
    case 'request':
      return context.requests.request({
        recipient: readString(args, 'recipient'),
        description: readString(args, 'description'),
        responseName: readOptionalString(args, 'responseName'),
        origin: context.origin,
      });
    case 'dismiss': {
      const number = readMessageNumber(args);
      await powers.dismiss(number);
      context.noteDismissed(number);
      return harden({ dismissed: number });
    }
    case 'adopt': {
      const number = readMessageNumber(args);
      const petName = readPath(args, keyIn(args, 'petName', 'path'));
      await powers.adopt(number, readString(args, 'edgeName'), petName);
      return harden({ adopted: petName });
    }
    case 'adoptTool':
      return adoptTool(context, args);
    case 'resolve': {
      const number = readMessageNumber(args);
      await powers.resolve(number, readPath(args, keyIn(args, 'path', 'petNamePath')));
      context.noteAnswered(number);
      return harden({ resolved: number });
    }
    case 'reject': {
      const number = readMessageNumber(args);
      await powers.reject(number, readOptionalString(args, 'reason'));
      context.noteAnswered(number);
      return harden({ rejected: number });
    }
    case 'messageHistory':
      return readMessageHistory(context.powers, readMessageNumber(args));
    case 'recall':
      if (context.recall === undefined) throw new Error('no conversation is kept here to search');
      return context.recall(readString(args, 'query'));
    default:
      throw new Error(`mail has no op "${op}"`);
  }
};
