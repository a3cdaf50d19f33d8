/**
 * Turns the agent's schedules start: a wake-up due (one-shot, recurring,
 * or a trigger that fired), told as one turn however many runs it stands
 * for; and the heartbeat, one quiet turn per setter for the checklist items
 * due, none at all when nothing is. Each run is taken in the store before
 * its turn, so a restart never runs it twice. A spent budget postpones them
 * (their setter told once per wait, a told mark with the agent's holds, so
 * not again after a restart); a peer's count against that peer's bounds
 * and run in its thread (docs/behaviour.md 9).
 */
import { holdKey } from '../lifecycle/holds.js';
import { cut } from '../mail/message-record.js';
import type { QuotaWait } from '../usage/hourly-quota.js';
import { heartbeatNotice, readOfSchedules, wakeUpNotice } from '../schedule/wake-ups.js';
import { originOf, type WakeUp } from '../schedule/wake-up-record.js';
import { HEARTBEAT_ID } from '../schedule/wake-up-timers.js';
import type { AgentParts } from './agent-parts.js';
import type { ToolsFreshness } from './tools-freshness.js';

/** A schedule set by a turn that had read what did not come from the HOST: its turn carries that label (behaviour 9.11). */
const untrustedOf = (entries: readonly WakeUp[]): { untrusted?: string } => {
  const read = readOfSchedules(entries);
  return read === undefined ? {} : { untrusted: read };
};

export const makeWakeTurns = (options: {
  parts: AgentParts;
  toolsFresh: ToolsFreshness;
  /** Stores the memory now (a run taken is stored before its turn). */
  save: () => Promise<void>;
}) => {
  const { parts, toolsFresh, save } = options;
  const { quotaWaits, holds, turns, wakeUps, tell, senders } = parts;
  const hostName = parts.daemon.names.host;

  const postpone = async (id: string, wait: QuotaWait): Promise<void> => {
    quotaWaits.hold({ kind: 'wake', id }, wait);
    if (!holds.tellOnce(holdKey.wakeUp(id), 'quota')) return;
    const entry = parts.memory.wakeUps.find(one => one.id === id);
    const what =
      id === HEARTBEAT_ID
        ? 'The heartbeat'
        : `Wake-up ${id}${entry === undefined ? '' : ` (${JSON.stringify(cut(entry.note, 80))})`}`;
    await tell(
      entry === undefined ? undefined : originOf(entry),
      `${what} is postponed: this hour's budget is spent (${wait.reason}). It runs at ${new Date(wait.until).toISOString()}, once, whatever fell due meanwhile.`,
    );
  };

  /** A peer's schedule counts as that peer's turn: held past its bounds like its mail. */
  const heldForPeer = async (entry: WakeUp, id: string): Promise<boolean> => {
    const sender = entry.origin?.sender;
    if (sender === undefined || sender === hostName) return false;
    const key = parts.memory.senders.find(record => record.name === sender)?.key ?? sender;
    const held = senders.check(key, false);
    if (held === undefined) {
      senders.served(key, sender, false);
      return false;
    }
    const line = senders.hold(key, sender, held, { kind: 'wake', id });
    if (line !== undefined) await tell(undefined, line);
    return true;
  };

  const heartbeat = async (): Promise<void> => {
    const due = wakeUps.takeChecks();
    // Nothing due: no turn, no model call.
    if (due.length === 0) return;
    await save();
    const bySetter = new Map<string, WakeUp[]>();
    for (const item of due) {
      const setter = item.origin?.sender ?? hostName;
      bySetter.set(setter, [...(bySetter.get(setter) ?? []), item]);
    }
    /* eslint-disable no-await-in-loop -- one turn per setter, in order: they share the conversation */
    for (const [setter, items] of bySetter) {
      await toolsFresh.beforeTurn();
      await turns.serve(
        `heartbeat: ${items.map(item => item.id).join(', ')}`,
        heartbeatNotice(items, setter),
        setter === hostName ? undefined : originOf(items[0]!),
        { quiet: true, ...untrustedOf(items) },
      );
      await toolsFresh.afterTurn();
    }
    /* eslint-enable no-await-in-loop */
  };

  return async (id: string): Promise<void> => {
    const wait = quotaWaits.check();
    if (wait !== undefined) {
      await postpone(id, wait);
      return;
    }
    holds.forget(holdKey.wakeUp(id));
    if (id === HEARTBEAT_ID) {
      await heartbeat();
      return;
    }
    const entry = parts.memory.wakeUps.find(one => one.id === id);
    if (entry === undefined || (await heldForPeer(entry, id))) return;
    // Taken out of the store (or moved to its next run) and stored first: never run twice.
    const run = wakeUps.takeRun(id);
    if (run === undefined) return;
    await save();
    await toolsFresh.beforeTurn();
    const outcome = await turns.serve(
      `wake-up ${run.entry.id}: ${JSON.stringify(cut(run.entry.note, 160))}`,
      wakeUpNotice(run.entry, run),
      originOf(run.entry),
      untrustedOf([run.entry]),
    );
    // Stopped part-way by a spent budget: due again, and held until the budget frees up.
    if (outcome?.stopReason === 'quota') wakeUps.putBack(run.entry);
    await toolsFresh.afterTurn();
  };
};
harden(makeWakeTurns);
