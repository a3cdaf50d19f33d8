/**
 * forget(): clears the conversation, its digest, the searchable history
 * and the usage, and says what went; the handled message ids and the
 * HOST's own wake-ups are kept. What the forgotten turns set going ends
 * with them (docs/behaviour.md 9.12): every helper running, and each
 * wake-up set for another party or after reading words not the HOST's.
 */
import type { Clock } from '../lifecycle/clock.js';
import { emptyConversationInPlace } from '../history/conversation.js';
import { emptyThreadsInPlace } from '../history/threads.js';
import type { Log } from '../log/log.js';
import { emptyUsage } from '../usage/usage-ledger.js';
import type { AgentParts } from './agent-parts.js';
import { partyOf } from '../peers/party-slots.js';

/** Ends the helpers and the wake-ups not the HOST's alone; what it says of them. */
const endWhatTheySetGoing = (parts: ForgetParts): string => {
  const helpers = parts.helpers.stopAll();
  const hostName = parts.daemon.names.host;
  const theirs = parts.memory.wakeUps.filter(
    entry => partyOf(entry.origin, hostName) !== hostName || entry.read !== undefined,
  );
  for (const entry of theirs) parts.wakeUps.revoke(entry.id);
  const ended = [
    ...(helpers === 0 ? [] : [`${helpers} helper${helpers === 1 ? '' : 's'} stopped`]),
    ...(theirs.length === 0
      ? []
      : [
          `${theirs.length} wake-up${theirs.length === 1 ? '' : 's'} set for others or after reading their words ended (${theirs.map(entry => entry.id).join(', ')})`,
        ]),
  ];
  return ended.length === 0 ? '' : ` ${ended.join('; ')}.`;
};

/** What forget() clears and ends. */
type ForgetParts = Pick<AgentParts, 'memory' | 'history' | 'helpers' | 'wakeUps' | 'daemon'>;

export const forgetConversation = async (
  parts: ForgetParts,
  clock: Clock,
  log: Log,
): Promise<string> => {
  const { memory, history } = parts;
  const ended = endWhatTheySetGoing(parts);
  const turnsForgotten = memory.conversation.turns.length;
  await history.forget();
  const calls = Object.values(memory.usage.byModel).reduce((sum, usage) => sum + usage.calls, 0);
  emptyConversationInPlace(memory.conversation);
  // Every sender's thread too: the HOST's held all their turns.
  emptyThreadsInPlace(memory.threads);
  memory.usage = emptyUsage(clock.now());
  log('memory cleared by forget()');
  return `Forgot ${turnsForgotten} turn${turnsForgotten === 1 ? '' : 's'} of conversation, the digest, the searchable history, and the usage of ${calls} model call${calls === 1 ? '' : 's'}. The ids of handled messages and the HOST's own wake-ups are kept.${ended}`;
};
harden(forgetConversation);
