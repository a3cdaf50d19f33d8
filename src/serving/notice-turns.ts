/**
 * Turns the agent starts itself for outcomes: one per message whose
 * outcomes arrived (proposals, requests, approvals settled while it was
 * idle), so each sender hears about its own; they wait while the hourly
 * quota is spent. Each is taken up once: the store forgets its outcomes
 * before its turn begins, so a turn stopped midway (Ctrl-C in the
 * simulator, a restart) is not begun again, and one done is not told again
 * (behaviour 10.2). Wake-ups are ./wake-turns.ts's.
 */
import type { AgentParts } from './agent-parts.js';
import type { ToolsFreshness } from './tools-freshness.js';
import { makePeerTurnHeld } from './peer-turns.js';
import { outcomeLabel } from '../asks/outcome-label.js';

export const makeNoticeTurns = (options: {
  parts: AgentParts;
  toolsFresh: ToolsFreshness;
  finishWith: (number: bigint) => Promise<void>;
  /** Writes the memory (the notices still queued, the asks told) to the store. */
  save: () => Promise<void>;
}) => {
  const { parts, toolsFresh, finishWith, save } = options;
  const { quotaWaits, notices, turns } = parts;
  const peerTurnHeld = makePeerTurnHeld(parts);

  const handleNotices = async (): Promise<void> => {
    const wait = quotaWaits.check();
    if (wait !== undefined) {
      quotaWaits.hold({ kind: 'notices' }, wait);
      return;
    }
    /* eslint-disable no-await-in-loop -- one turn per origin, in order: they share the conversation */
    // Outcomes held for their party's bounds go back to the end of the queue, once a pass.
    const held = new Set<unknown>();
    for (let arrived = notices.takeNext(); arrived.length > 0; arrived = notices.takeNext()) {
      const origin = arrived[0]!.origin;
      if (held.has(origin?.number)) {
        notices.putBack(arrived);
        break;
      }
      // Another party's outcome is its turn: past its bounds, its outcomes wait (behaviour 9.12).
      if (await peerTurnHeld(origin?.sender, { kind: 'notices' })) {
        held.add(origin?.number);
        notices.putBack(arrived);
        continue;
      }
      await save();
      const title = `outcome: ${arrived.map(notice => `${notice.id} ${notice.text.split(':')[0]}`).join(', ')}`;
      await toolsFresh.beforeTurn();
      const outcome = await turns.serve(
        title,
        arrived.map(notice => notice.text).join('\n\n'),
        origin,
        // What someone else answered, or what a call, code or helper returned: untrusted (behaviour 9.10).
        { untrusted: outcomeLabel(arrived.map(notice => notice.id)) },
      );
      if (outcome?.stopReason === 'quota') {
        // Stopped part-way by a spent budget: these outcomes (and the rest) wait for it to free up.
        arrived.forEach(notice => notices.push(notice));
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

  return { handleNotices };
};
harden(makeNoticeTurns);
