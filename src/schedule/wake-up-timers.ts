/**
 * The timers behind the stored schedules: one per wake-up on the clock (a
 * trigger's only while events wait for their turn), and one for the whole
 * heartbeat, at its soonest checklist item — none at all while the list is
 * empty or every item is paused, so an idle heartbeat costs nothing.
 */
import type { Clock } from '../lifecycle/clock.js';
import { isCheck, isTrigger, type WakeUp } from './wake-up-record.js';

/** The id of the heartbeat's own work: every checklist item due is looked at in one turn. */
export const HEARTBEAT_ID = 'heartbeat';
harden(HEARTBEAT_ID);

export interface WakeUpTimers {
  arm(entry: WakeUp): void;
  disarm(id: string): void;
  /** Arms the heartbeat at its soonest item again (after the list or an item's time changed). */
  rearmHeartbeat(): void;
  stop(): void;
}

export const makeWakeUpTimers = (options: {
  stored: readonly WakeUp[];
  clock: Clock;
  onDue: (id: string) => void;
}): WakeUpTimers => {
  const { stored, clock, onDue } = options;
  const timers = new Map<string, () => void>();
  let heartbeat: { at: number; cancel: () => void } | undefined;
  let stopped = false;

  const rearmHeartbeat = () => {
    const soonest = stored
      .filter(entry => isCheck(entry) && entry.paused !== true)
      .reduce<number | undefined>(
        (at, entry) => (at === undefined || entry.at < at ? entry.at : at),
        undefined,
      );
    if (heartbeat !== undefined && heartbeat.at === soonest) return;
    heartbeat?.cancel();
    heartbeat = undefined;
    if (stopped || soonest === undefined) return;
    heartbeat = {
      at: soonest,
      cancel: clock.at(soonest, () => {
        heartbeat = undefined;
        onDue(HEARTBEAT_ID);
      }),
    };
  };

  const arm = (entry: WakeUp) => {
    if (stopped || entry.paused === true) return;
    if (isCheck(entry)) {
      rearmHeartbeat();
      return;
    }
    // A trigger is armed only while events wait for their turn.
    if (isTrigger(entry) && (entry.events ?? 0) === 0) return;
    if (timers.has(entry.id)) return;
    timers.set(
      entry.id,
      clock.at(entry.at, () => {
        timers.delete(entry.id);
        onDue(entry.id);
      }),
    );
  };

  return {
    arm,
    disarm(id) {
      timers.get(id)?.();
      timers.delete(id);
    },
    rearmHeartbeat,
    stop() {
      stopped = true;
      for (const cancel of timers.values()) cancel();
      timers.clear();
      heartbeat?.cancel();
      heartbeat = undefined;
    },
  };
};
harden(makeWakeUpTimers);
