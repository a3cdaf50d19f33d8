/**
 * The tools that write to someone: `reply` (the one a model uses most, so
 * a tool of its own) and `send`.
 */
import { E } from '@endo/far';
import type { BuiltinContext } from '../builtin-context.js';
import { checkMessageParts, type MessageParts } from '../../agent-tools/read-args.js';
import type { ToolValues } from '../../agent-tools/validate-arguments.js';

/** `send`, else `reply`, with the values their definitions read (../builtin-schemas.ts). */
export const runMessageTool = async (
  name: 'reply' | 'send',
  values: ToolValues,
  context: BuiltinContext,
): Promise<unknown> => {
  const powers = E(context.powers);
  const {
    strings: written,
    edgeNames,
    petNames,
  } = checkMessageParts(values as unknown as MessageParts);
  const recipient = values.recipient as string;
  const number = values.messageNumber as bigint;
  // The HOST reads, in the agent's words, that the text is the model's and whom it serves (behaviour 9.9).
  const mark = await context.markForHost?.(
    name === 'send'
      ? { kind: 'to', name: recipient, what: 'sends a message' }
      : { kind: 'message', number, what: 'replies' },
  );
  const strings =
    mark === undefined ? written : [`${mark}${written[0] ?? ''}`, ...written.slice(1)];
  if (name === 'send') {
    await (context.speak ?? powers).send(recipient, strings, edgeNames, petNames);
    return harden({ sent: true, to: recipient });
  }
  await (context.speak ?? powers).reply(number, strings, edgeNames, petNames);
  return harden({ replied: true, to: number });
};
harden(runMessageTool);
