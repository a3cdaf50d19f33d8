/**
 * forget(): clears the conversation, its digest, the searchable history
 * and the usage, and says what went; the handled message ids and pending
 * wake-ups are kept.
 */
import type { Clock } from '../lifecycle/clock.js';
import { emptyConversationInPlace } from '../history/conversation.js';
import { emptyThreadsInPlace } from '../history/threads.js';
import type { Log } from '../log/log.js';
import type { Memory } from '../memory/agent-memory.js';
import type { HistoryArchive } from '../recall/history-archive.js';
import { emptyUsage } from '../usage/usage-ledger.js';

export const forgetConversation = async (
  memory: Memory,
  history: Pick<HistoryArchive, 'forget'>,
  clock: Clock,
  log: Log,
): Promise<string> => {
  const turnsForgotten = memory.conversation.turns.length;
  await history.forget();
  const calls = Object.values(memory.usage.byModel).reduce((sum, usage) => sum + usage.calls, 0);
  emptyConversationInPlace(memory.conversation);
  // Every sender's thread too: the HOST's held all their turns.
  emptyThreadsInPlace(memory.threads);
  memory.usage = emptyUsage(clock.now());
  log('memory cleared by forget()');
  return `Forgot ${turnsForgotten} turn${turnsForgotten === 1 ? '' : 's'} of conversation, the digest, the searchable history, and the usage of ${calls} model call${calls === 1 ? '' : 's'}. The ids of handled messages and the pending wake-ups are kept.`;
};
harden(forgetConversation);
