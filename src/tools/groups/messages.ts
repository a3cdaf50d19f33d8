/**
 * The tools that write to someone: `reply` (the one a model uses most, so
 * a tool of its own) and `send`.
 */
import { E } from '@endo/far';
import type { BuiltinContext } from '../builtin-context.js';
import { checkMessageParts, type MessageParts } from '../read-args.js';
import type { ToolValues } from '../validate-arguments.js';

/** `send`, else `reply`, with the values their definitions read (../builtin-schemas.ts). */
export const runMessageTool = async (
  name: 'reply' | 'send',
  values: ToolValues,
  context: BuiltinContext,
): Promise<unknown> => {
  const powers = E(context.powers);
  const { strings, edgeNames, petNames } = checkMessageParts(values as unknown as MessageParts);
  switch (name) {
    case 'send': {
      const recipient = values.recipient as string;
      await (context.speak ?? powers).send(recipient, strings, edgeNames, petNames);
      context.noteAnswered(undefined);
      return harden({ sent: true, to: recipient });
    }
    default: {
      const number = values.messageNumber as bigint;
      await (context.speak ?? powers).reply(number, strings, edgeNames, petNames);
      context.noteAnswered(number);
      return harden({ replied: true, to: number });
    }
  }
};
harden(runMessageTool);
