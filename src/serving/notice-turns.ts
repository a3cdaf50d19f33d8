/**
 * Turns the agent starts itself: one per message whose outcomes arrived
 * (proposals, requests, approvals settled while it was idle), so each
 * sender hears about its own; and one per wake-up that fell due. Both wait
 * while the hourly quota is spent.
 */
import { cut } from '../mail/message-record.js';
import { byOrigin } from './notices.js';
import { originOf, wakeUpNotice } from '../schedule/wake-ups.js';
import type { AgentParts } from './agent-parts.js';
import type { ToolsFreshness } from './tools-freshness.js';

export const makeNoticeTurns = (options: {
  parts: AgentParts;
  toolsFresh: ToolsFreshness;
  finishWith: (number: bigint) => Promise<void>;
}) => {
  const { parts, toolsFresh, finishWith } = options;
  const { quotaWaits, notices, turns, wakeUps } = parts;

  const handleNotices = async (): Promise<void> => {
    const wait = quotaWaits.check();
    if (wait !== undefined) {
      quotaWaits.hold({ kind: 'notices' }, wait);
      return;
    }
    const groups = byOrigin(notices.take());
    /* eslint-disable no-await-in-loop -- one turn per origin, in order: they share the conversation */
    for (const [index, { origin, notices: arrived }] of groups.entries()) {
      const title = `outcome: ${arrived.map(notice => `${notice.id} ${notice.text.split(':')[0]}`).join(', ')}`;
      await toolsFresh.beforeTurn();
      const outcome = await turns.serve(
        title,
        arrived.map(notice => notice.text).join('\n\n'),
        origin,
      );
      if (outcome?.stopReason === 'quota') {
        // Stopped part-way by a spent budget: these outcomes and the rest wait for it to free up.
        for (const group of groups.slice(index))
          group.notices.forEach(notice => notices.push(notice));
        return;
      }
      // The message these outcomes belong to can go once nothing more is pending for it.
      await Promise.all([
        origin === undefined ? undefined : finishWith(origin.number),
        toolsFresh.afterTurn(),
      ]);
    }
    /* eslint-enable no-await-in-loop */
  };

  const handleWake = async (id: string): Promise<void> => {
    const wait = quotaWaits.check();
    if (wait !== undefined) {
      quotaWaits.hold({ kind: 'wake', id }, wait);
      return;
    }
    // Taken out of the store first: a wake-up that fails is not repeated forever.
    const entry = wakeUps.take(id);
    if (entry === undefined) return;
    await toolsFresh.beforeTurn();
    const outcome = await turns.serve(
      `wake-up ${entry.id}: ${JSON.stringify(cut(entry.note, 160))}`,
      wakeUpNotice(entry),
      originOf(entry),
    );
    // Stopped part-way by a spent budget: due again, and held until the budget frees up.
    if (outcome?.stopReason === 'quota') wakeUps.putBack(entry);
    await toolsFresh.afterTurn();
  };

  return { handleNotices, handleWake };
};
harden(makeNoticeTurns);
