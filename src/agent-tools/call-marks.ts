/**
 * What a built-in call that ran did that whoever serves the turn keeps track of, read from its
 * op's record (`marks` in ./builtin-schemas.ts): the message it answered (reply, resolve,
 * reject), a message sent, a message dismissed. The loop notes each in the turn's outcome
 * (src/loop/run-turn.ts) and ends a turn once its message is answered, so serving reads what
 * the model did from the result instead of planting callbacks in the tools.
 */
import { opRecord } from './builtin-schemas.js';
import type { DecodedCall } from './decode-call.js';

export type CallMark =
  { kind: 'answered'; number: bigint } | { kind: 'sent' } | { kind: 'dismissed'; number: bigint };

/** The mark a call leaves once it ran without an error, or undefined for none. */
export const markOf = ({ call, grouped, values }: DecodedCall): CallMark | undefined => {
  const marks = opRecord(grouped?.group ?? call.name, grouped?.op)?.marks;
  if (marks === 'sends') return { kind: 'sent' };
  const number = values.messageNumber;
  if (marks === undefined || typeof number !== 'bigint') return undefined;
  return marks === 'answers' ? { kind: 'answered', number } : { kind: 'dismissed', number };
};
harden(markOf);
