/**
 * The `mail` tool's ops that are more than one daemon call: the inbox as
 * the turn holds it (a peer's turn: its peer's messages), `request`, and
 * `adoptTool`. The switch over every op is ../dispatch-builtin-tool.ts;
 * `reply` and `send` are tools of their own (./messages.ts).
 */
import { E } from '@endo/far';
import { compactMessage } from '../../mail/compact-message.js';
import type { MessageRecord } from '../../mail/message-record.js';
import type { BuiltinContext } from '../builtin-context.js';
import { TOOLS_DIRECTORY } from '../../agent-tools/fae-tool-registry.js';
import { BUILTIN_NAMES } from '../../agent-tools/builtin-schemas.js';
import type { BuiltinArgs } from '../../agent-tools/builtin-schemas.js';

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
  // The rest of the turn is offered what tools/ holds again (not the refused name).
  await context.tools.refresh({ force: true });
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

/** Who sent message `number`, by name (the giver of a tool it carries). */
const senderOf = async (context: BuiltinContext, number: bigint): Promise<string> => {
  const messages = (await E(context.powers).listMessages()) as MessageRecord[];
  const found = messages.find(message => message.number === number);
  return found === undefined ? 'unknown sender' : context.nameOf(found.from);
};

/**
 * A tool comes into tools/ only under a name nothing there holds, and it is
 * refused when the name it calls itself is already offered (a built-in, a
 * tool of tools/ or of a tool source): a tool someone gives never replaces
 * or shadows one the model has (behaviour 9.8). Who gave it is recorded
 * (../tool-givers.ts) before it is first offered.
 */
export const adoptTool = async (
  context: BuiltinContext,
  values: BuiltinArgs<'adoptTool'>,
): Promise<unknown> => {
  const { messageNumber: number, toolName, edgeName } = values;
  if (toolName.includes('/')) throw new Error('toolName must be one pet name, without "/"');
  if (await E(context.powers).has(TOOLS_DIRECTORY, toolName))
    throw new Error(
      `${TOOLS_DIRECTORY}/${toolName} is taken, and a tool never replaces another: choose a new toolName`,
    );
  const offeredBefore = new Map<string, string>([
    ...[...BUILTIN_NAMES].map(name => [name, 'a built-in tool'] as const),
    ...context.tools
      .schemas()
      .map(
        schema =>
          [
            schema.function.name,
            `${TOOLS_DIRECTORY}/${context.tools.find(schema.function.name)?.petName ?? '?'}`,
          ] as const,
      ),
  ]);
  await E(context.powers).adopt(number, edgeName, [TOOLS_DIRECTORY, toolName]);
  const id = await E(context.powers).identify(TOOLS_DIRECTORY, toolName);
  const giver = await senderOf(context, number);
  if (typeof id === 'string' && giver !== context.hostName)
    await context.givers?.adopted(toolName, id, giver);
  await context.tools.refresh({ force: true });
  const refusal = context.tools.refusal(toolName);
  const adopted = context.tools
    .schemas()
    .find(schema => context.tools.find(schema.function.name)?.petName === toolName);
  const holder = adopted === undefined ? undefined : offeredBefore.get(adopted.function.name);
  if (adopted === undefined || holder !== undefined) {
    return refuseAdoption(
      context,
      number,
      edgeName,
      toolName,
      holder === undefined
        ? (refusal ?? 'it is not a usable FaeTool')
        : `it calls itself "${adopted?.function.name}", a name ${holder} already answers to`,
    );
  }
  return harden({
    adopted: `${TOOLS_DIRECTORY}/${toolName}`,
    callAs: adopted.function.name,
    description: adopted.function.description,
  });
};
harden(adoptTool);

export const listMessages = async (context: BuiltinContext): Promise<unknown> => {
  const messages = (await E(context.powers).listMessages()) as MessageRecord[];
  // A turn serving another party holds that party's messages only (src/parties/peer-powers.ts).
  return harden(
    await Promise.all(messages.map(message => compactMessage(message, context.nameOf))),
  );
};
harden(listMessages);

/** `request`: a value asked of a recipient, whose answer comes later as a notice. */
export const requestValue = async (
  context: BuiltinContext,
  values: BuiltinArgs<'request'>,
): Promise<unknown> => {
  const { recipient } = values;
  // The HOST reads, in the agent's words, that the text is the model's and whom it serves (behaviour 9.9).
  const mark = await context.markForHost?.({
    kind: 'to',
    name: recipient,
    what: 'makes a request',
  });
  return context.requests.request({
    recipient,
    description: `${mark ?? ''}${values.description}`,
    responseName: values.responseName,
    origin: context.origin,
  });
};
harden(requestValue);
