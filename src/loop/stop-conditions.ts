/**
 * Stop conditions: small predicates checked after each batch of tool calls.
 * The first that holds ends the turn with its reason, saving the model call
 * that would only have said "done".
 */
import type { ToolCall } from '../../providers/types.js';

interface Step {
  toolCalls: readonly ToolCall[];
}

export type StopCondition = (step: Step) => 'answered' | undefined;

/** The turn is over once the sender of its message was answered (reply, resolve or reject). */
export const whenSenderAnswered =
  (isAnswered: () => boolean): StopCondition =>
  () =>
    isAnswered() ? 'answered' : undefined;
harden(whenSenderAnswered);
