/**
 * Once a turn is over: whether the model spoke to the sender and whether
 * something it started for the message is still pending, the line that
 * closes the turn in the history, and what the sender is told on the
 * model's behalf — through the live-progress placeholder while it is
 * unfinished, so the chat keeps one message.
 */
import type { Turn } from '../history/conversation.js';
import { closeTurn } from '../history/close-turn.js';
import type { TurnOutcome } from '../loop/run-turn.js';
import { codeSpans } from '../mail/code-spans.js';
import type { TellSender } from '../mail/tell-sender.js';
import type { Origin } from '../mail/origin.js';
import type { Placeholder } from '../progress/live-placeholders.js';
import { textContent } from '../progress/throttled-edits.js';
import { endingOf, type Ending } from './turn-ending.js';

interface HasPending {
  hasPendingFor(number: bigint): boolean;
}

/** How the turn ended, for the placeholder's closing line. */
export interface TurnEnded {
  stopReason: string;
  pending: boolean;
  hostName: string;
}

export const tellTurnEnd = async (options: {
  outcome: TurnOutcome;
  /** Set when the turn threw instead of ending. */
  thrown: string | undefined;
  origin: Origin | undefined;
  turn: Turn;
  placeholder: Placeholder | undefined;
  /** What may still answer the message later: the asks made for it (proposals, requests, approvals). */
  asks: HasPending;
  tell: TellSender;
  redact: (text: string) => string;
  hostName: string;
  /** A heartbeat's turn: an ordinary end tells no one (its model sends what needs telling). */
  quiet?: boolean;
}): Promise<TurnEnded> => {
  const { outcome, thrown, origin, placeholder } = options;
  // The model spoke when it sent a message, or answered this turn's message (its outcome's marks).
  const spoke = outcome.marks.some(
    mark => mark.kind === 'sent' || (mark.kind === 'answered' && mark.number === origin?.number),
  );
  const pending = origin !== undefined && options.asks.hasPendingFor(origin.number);
  const ending: Ending =
    options.quiet === true && outcome.stopReason === 'done'
      ? {}
      : endingOf({
          outcome,
          ...(thrown === undefined ? {} : { thrown }),
          spoke,
          pending,
          sender: origin?.sender,
        });
  if (ending.closing !== undefined) closeTurn(options.turn, ending.closing);
  if (ending.tell !== undefined) {
    // The agent's own words get code spans; the model's words are its own.
    const own = ending.tell !== outcome.finalText.trim();
    const said = options.redact(own ? codeSpans(ending.tell) : ending.tell);
    if (placeholder === undefined || !(await placeholder.finish(textContent(said))))
      await options.tell(origin, said);
  }
  return { stopReason: outcome.stopReason, pending, hostName: options.hostName };
};
harden(tellTurnEnd);
