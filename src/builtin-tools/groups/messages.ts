/**
 * The tools that write to someone: `reply` (the one a model uses most, so
 * a tool of its own) and `send`.
 */
import { farOf } from '../../daemon/far-ref.js';
import type { BuiltinContext } from '../builtin-context.js';
import { checkMessageParts } from '../../agent-tools/read-args.js';
import type { BuiltinArgs } from '../../agent-tools/builtin-schemas.js';

/**
 * The message's parts checked, and its first string marked for the HOST when the turn marks the
 * model's words (behaviour 9.9), in the order `send` and `reply` take them after whom they go to.
 */
const writtenParts = async (
  values: BuiltinArgs<'reply'> | BuiltinArgs<'send'>,
  context: BuiltinContext,
  toward: Parameters<NonNullable<BuiltinContext['markForHost']>>[0],
) => {
  const { strings: written, edgeNames, petNames } = checkMessageParts(values);
  const mark = await context.markForHost?.(toward);
  const strings =
    mark === undefined ? written : [`${mark}${written[0] ?? ''}`, ...written.slice(1)];
  return [strings, edgeNames, petNames] as const;
};

/** `send`, with the values its definition read (../builtin-schemas.ts). */
export const runSend = async (
  values: BuiltinArgs<'send'>,
  context: BuiltinContext,
): Promise<unknown> => {
  const { recipient } = values;
  const parts = await writtenParts(values, context, {
    kind: 'to',
    name: recipient,
    what: 'sends a message',
  });
  await (context.speak ?? farOf(context.powers)).send(recipient, ...parts);
  return harden({ sent: true, to: recipient });
};
harden(runSend);

/** `reply`, with the values its definition read (../builtin-schemas.ts). */
export const runReply = async (
  values: BuiltinArgs<'reply'>,
  context: BuiltinContext,
): Promise<unknown> => {
  const number = values.messageNumber;
  const parts = await writtenParts(values, context, { kind: 'message', number, what: 'replies' });
  const speaker = context.speak ?? farOf(context.powers);
  try {
    await speaker.reply(number, ...parts);
    return harden({ replied: true, to: number });
  } catch (error) {
    // The message this turn serves may be gone (an eval-proposal a restart ended): its sender still hears.
    const { origin } = context;
    if (origin === undefined || origin.number !== number) throw error;
    await speaker.send(origin.sender, ...parts);
    return harden({ replied: true, to: number, sentTo: origin.sender, why: `#${number} is gone` });
  }
};
harden(runReply);
