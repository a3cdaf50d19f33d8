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
import type { Memory } from '../memory/agent-memory.js';
import type { HistoryArchive } from '../recall/history-archive.js';
import { emptyUsage } from '../usage/usage-ledger.js';
import type { Helpers } from '../helpers/helpers.js';
import type { WakeUps } from '../schedule/wake-ups.js';
import { partyOf } from '../peers/party-slots.js';

/** What the forgotten turns set going, ended with them. */
interface SetGoing {
  helpers: Pick<Helpers, 'stopAll'>;
  wakeUps: Pick<WakeUps, 'revoke'>;
  hostName: string;
}

/** Ends the helpers and the wake-ups not the HOST's alone; what it says of them. */
const endWhatTheySetGoing = (memory: Memory, going: SetGoing): string => {
  const helpers = going.helpers.stopAll();
  const theirs = memory.wakeUps.filter(
    entry => partyOf(entry.origin, going.hostName) !== going.hostName || entry.read !== undefined,
  );
  for (const entry of theirs) going.wakeUps.revoke(entry.id);
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

export const forgetConversation = async (
  memory: Memory,
  history: Pick<HistoryArchive, 'forget'>,
  clock: Clock,
  log: Log,
  going?: SetGoing,
): Promise<string> => {
  const ended = going === undefined ? '' : endWhatTheySetGoing(memory, going);
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
