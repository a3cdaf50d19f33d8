/**
 * The tool calls of one model reply, in order, each answered in the turn:
 * a call the check refused gets its refusal; the others are decoded once
 * (src/agent-tools/decode-call.ts), and on that one value the repeated-call
 * guard warns, refuses or ends the turn (the calls left answered "not run")
 * and `run` judges and runs it.
 */
import type { ChatMessage, ToolCall } from '../../providers/types.js';
import type { CallDecoding } from '../agent-tools/decode-call.js';
import type { Turn } from '../history/conversation.js';
import type { CheckedCall } from './check-reply-calls.js';
import type { RepeatGuard } from './repeat-guard.js';

const REPEAT_WARNING = (count: number) =>
  `\n[warning: you made this exact call ${count} times in this turn. Do something else or finish.]`;
const REPEAT_REFUSAL = (count: number) =>
  JSON.stringify({
    error: `refused: this exact call was already made ${count - 1} times in this turn. Do something else or finish.`,
  });
const NOT_RUN = JSON.stringify({ error: 'not run: the turn was ended' });

export const pushMessage = (turn: Turn, message: ChatMessage) => {
  turn.messages.push(message);
};
harden(pushMessage);

/** Why the calls stopped before the last one ran, when they did. */
export type CallsStopped =
  { stopped: 'cancelled' } | { stopped: 'repeated-calls'; error: string } | undefined;

export const runReplyCalls = async (
  checked: readonly CheckedCall[],
  {
    turn,
    guard,
    signal,
    decode,
    run,
  }: {
    turn: Turn;
    guard: RepeatGuard;
    signal: AbortSignal;
    decode: (call: ToolCall) => CallDecoding;
    run: (call: CallDecoding) => Promise<string>;
  },
): Promise<CallsStopped> => {
  const calls = checked.map(entry => entry.call);
  for (const [index, { call, refusal }] of checked.entries()) {
    if (refusal !== undefined) {
      pushMessage(turn, { role: 'tool', toolCallId: call.id, name: call.name, content: refusal });
      continue;
    }
    const decoded = decode(call);
    const { verdict, count } = guard.check(decoded.key);
    if (verdict === 'stop' || signal.aborted) {
      for (const skipped of calls.slice(index)) {
        pushMessage(turn, {
          role: 'tool',
          toolCallId: skipped.id,
          name: skipped.name,
          content: NOT_RUN,
        });
      }
      return signal.aborted
        ? { stopped: 'cancelled' }
        : {
            stopped: 'repeated-calls',
            error: `the model repeated the same ${call.name} call ${count} times`,
          };
    }
    // eslint-disable-next-line no-await-in-loop -- calls run in the model's order (a later one may read what an earlier one wrote)
    const content = verdict === 'refuse' ? REPEAT_REFUSAL(count) : await run(decoded);
    pushMessage(turn, {
      role: 'tool',
      toolCallId: call.id,
      name: call.name,
      content: verdict === 'warn' ? `${content}${REPEAT_WARNING(count)}` : content,
    });
  }
  return undefined;
};
harden(runReplyCalls);
