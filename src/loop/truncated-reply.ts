/**
 * A reply cut by the output limit (the provider's `truncated`: finish_reason "length", stop_reason
 * "max_tokens", done_reason "length") never acts: its tool calls, structured or recovered from its
 * text, may carry whatever part of their arguments was written before the cut, so none of them
 * runs. Each is answered with why and what to do instead (as pi-mono's agent loop fails the calls
 * of a truncated message), and a cut reply without calls gets the same word as a notice. After
 * `maxTruncatedReplies` cut replies in a row the turn ends and the sender is told.
 */
import type { CheckedCall } from './check-reply-calls.js';

const RETRY_SHORTER =
  'Retry with a shorter reply: fewer tool calls at a time, and long text split over several calls or messages.';

/** The result of each call of a cut reply. */
const truncatedCallRefusal = (total: number): string =>
  JSON.stringify({
    error: `not run: your reply was cut off at the output token limit before it was complete, so none of its ${total} tool call${total === 1 ? '' : 's'} ran (their arguments may be incomplete). ${RETRY_SHORTER}`,
  });

/** What the model is shown after a cut reply that made no call. */
export const TRUNCATED_TEXT_NOTICE = `[Your last reply was cut off at the output token limit before it was complete. ${RETRY_SHORTER}]`;
harden(TRUNCATED_TEXT_NOTICE);

/** Every call of a cut reply, answered with the refusal instead of being run. */
export const refuseTruncatedCalls = (checked: readonly CheckedCall[]): CheckedCall[] =>
  checked.map(({ call }) => ({ call, refusal: truncatedCallRefusal(checked.length) }));
harden(refuseTruncatedCalls);

/** Why the turn ends when the model's replies keep being cut. */
export const truncatedRepliesError = (count: number): string =>
  `the model's replies were cut off at the output token limit ${count} times in a row (raise LAL_MAX_TOKENS, or ask for less at a time)`;
harden(truncatedRepliesError);
