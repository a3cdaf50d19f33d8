/**
 * What the agent does when a turn ends, whatever ended it: what to tell the
 * sender (so no sender is left waiting) and the one line that closes the
 * turn in the history (so a failed turn's notice is not read as new mail
 * together with the next one).
 */
import type { TurnOutcome } from '../loop/run-turn.js';

export interface TurnEnd {
  outcome: TurnOutcome;
  /** Set when the turn threw instead of ending. */
  thrown?: string;
  /** The model answered the sender itself (reply, send, resolve, reject). */
  spoke: boolean;
  /** A proposal or request made for the message is still out: its outcome will answer. */
  pending: boolean;
  /** Whom the message came from, when it came from someone. */
  sender: string | undefined;
}

export interface Ending {
  /** Said to the sender on the model's behalf. */
  tell?: string;
  /** One line closing the turn in the history, when the model's own words did not. */
  closing?: string;
}

/** A reason without its own final period, to sit inside a sentence. */
const clause = (text: string): string => text.trim().replace(/[.\s]+$/, '');

const SILENT = 'the model ended its turn without a reply';

/** The words a sender hears when the agent itself failed at its message, in or before a turn. */
export const agentFailed = (thrown: string): string =>
  `I could not answer this: the agent failed: ${clause(thrown)}. Send it again if you still need it.`;
harden(agentFailed);

export const endingOf = ({ outcome, thrown, spoke, pending, sender }: TurnEnd): Ending => {
  const told = sender === undefined ? '' : `; ${sender} was told`;
  const close = (what: string) => `(No answer: ${clause(what)}${told}.)`;
  if (thrown !== undefined) {
    return { tell: agentFailed(thrown), closing: close(`the agent failed: ${clause(thrown)}`) };
  }
  switch (outcome.stopReason) {
    case 'answered':
      // Ended by the reply's own result: the model sees it answered.
      return {};
    case 'cancelled':
      return { closing: '(Stopped: the agent was cancelled.)' };
    case 'quota':
      // The error is the whole sentence for the sender: the budget, and when the message is taken up again.
      return {
        tell: outcome.error ?? "I have used this hour's budget part-way through this.",
        closing: close(
          "this hour's budget was spent before the next model call; the message is taken up again when it frees up",
        ),
      };
    case 'done': {
      const text = outcome.finalText.trim();
      if (text !== '') return spoke ? {} : { tell: text };
      if (spoke || pending || sender === undefined) return {};
      return {
        tell: `I could not answer this: ${SILENT}. Send it again or rephrase if you still need it.`,
        closing: close(SILENT),
      };
    }
    default: {
      const why =
        outcome.stopReason === 'error'
          ? `the model failed: ${clause(outcome.error ?? 'unknown error')}`
          : clause(outcome.error ?? outcome.stopReason);
      // What it asked for is still out: it is not withdrawn, so the sender hears it is coming.
      // A server down or failing is not helped by other words: say what would (issue 45).
      const next = pending
        ? 'What I asked for it still waits for an answer; I will tell you what comes of it.'
        : outcome.serverFailed === true
          ? 'Send it again once the model server answers: check that it runs and that LAL_HOST points at it.'
          : 'Send it again or rephrase if you still need it.';
      return { tell: `I stopped working on this: ${why}. ${next}`, closing: close(why) };
    }
  }
};
harden(endingOf);
