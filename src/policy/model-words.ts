/**
 * Requests the model makes are marked as such (behaviour 9.9): what the
 * model sends the HOST while serving someone else, and any request it makes
 * of the HOST once its turn has read untrusted content, starts with the
 * agent's own words, outside the model's text: whom it is serving, and that
 * what follows is the model's. The agent's approval requests start with
 * "While serving …, <agent> asks to call" (or "<agent> asks to call"), so no text of the model can take their form: the
 * model's always starts with this mark.
 */
import type { Origin } from '../mail/origin.js';
import type { CallParties } from './call-parties.js';
import type { Effect } from './side-effects.js';
import type { TurnTaint } from './turn-taint.js';

/** The mark before the model's text, for the HOST. */
export const modelWordsMark = (
  agentName: string,
  origin: Origin | undefined,
  read: string | undefined,
): string => {
  const serving =
    origin === undefined
      ? 'not serving any message'
      : `serving message #${origin.number} from ${origin.sender}`;
  const after = read === undefined ? '' : `, after reading ${read}`;
  return `[${agentName}: the model's words, written while ${serving}${after}; not one of my approval requests] `;
};
harden(modelWordsMark);

/** The mark a call's text to the HOST gets in this turn, or undefined when it goes as written. */
export type MarkForHost = (effect: Effect) => Promise<string | undefined>;

export const makeMarkForHost = (options: {
  agentName: string;
  origin: Origin | undefined;
  turn: TurnTaint;
  parties: CallParties;
}): MarkForHost => {
  const { agentName, origin, turn, parties } = options;
  return async effect => {
    const read = turn.read();
    const isRequest = effect.kind === 'to' && effect.what === 'makes a request';
    // Serving the HOST with nothing untrusted read, or telling the HOST an answer in its own turn: as written.
    if (!turn.peerTurn && (read === undefined || !isRequest)) return undefined;
    if ((await parties.partyOf(effect, origin)) !== 'host') return undefined;
    return modelWordsMark(agentName, origin, read);
  };
};
harden(makeMarkForHost);
