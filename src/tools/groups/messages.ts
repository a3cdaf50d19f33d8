/**
 * The tools that write to someone: `reply` (the one a model uses most, so
 * a tool of its own) and `send`.
 */
import { E } from '@endo/far';
import type { BuiltinContext } from '../builtin-context.js';
import { readMessageNumber, readMessageParts, readString, type Args } from '../read-args.js';

/** `send`, else `reply`. */
export const runMessageTool = async (
  name: 'reply' | 'send',
  args: Args,
  context: BuiltinContext,
): Promise<unknown> => {
  const powers = E(context.powers);
  switch (name) {
    case 'send': {
      const recipient = readString(args, 'recipient');
      const { strings, edgeNames, petNames } = readMessageParts(args);
      await (context.speak ?? powers).send(recipient, strings, edgeNames, petNames);
      context.noteAnswered(undefined);
      return harden({ sent: true, to: recipient });
    }
    default: {
      const number = readMessageNumber(args);
      const { strings, edgeNames, petNames } = readMessageParts(args);
      await (context.speak ?? powers).reply(number, strings, edgeNames, petNames);
      context.noteAnswered(number);
      return harden({ replied: true, to: number });
    }
  }
};
