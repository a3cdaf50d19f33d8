/**
 * The one owner of holds: work held back until it may be served. Per key,
 * the work parked in arrival order, the timer that releases it, and the
 * release, which puts every piece back on the agent's queue in order
 * (nothing is dropped); and the told-once marks, one stored list in the
 * agent's memory, so whoever is told of a hold hears it once, not again
 * each time the work comes back, nor after a restart. The hourly quotas
 * (../usage/quota-waits.ts), the bounds on conversations with other agents
 * (../peers/conversation-bounds.ts) and the schedules postponed by a spent
 * budget (../serving/wake-turns.ts) all hold here; each only judges whether
 * and until when.
 */
import type { Clock } from './clock.js';

/** A hold whose party has been told of it: what is held (its key) and why (as stored). */
export interface ToldHold {
  key: string;
  why: string;
}

/** The keys holds go by, one namespace per kind of thing held. */
export const holdKey = {
  /** The one key the quotas park under: a spent budget holds everyone's work. */
  quota: 'quota',
  /** A message held by the quota, whose sender is told when it is taken up. */
  message: (key: string) => `message ${key}`,
  /** A sender held by the conversation bounds (its key, ../peers/sender-ledger.ts). */
  sender: (key: string) => `sender ${key}`,
  /** A wake-up (or the heartbeat) postponed by a spent budget. */
  wakeUp: (id: string) => `wake-up ${id}`,
};
harden(holdKey);

/** Marks kept; the oldest with nothing parked go first (a held message dismissed by someone else). */
export const TOLD_KEPT = 256;
harden(TOLD_KEPT);

export interface Holds<W> {
  /**
   * Parks `work` under `key`; with `until`, a release is due then (a later
   * time moves a release already due earlier; an earlier one leaves it).
   */
  park(key: string, work: W, until?: number): void;
  /** Puts the work parked under `key` back on the queue, in order, stops its timer and forgets its told mark. */
  release(key: string): void;
  /** How many pieces wait under `key`. */
  count(key: string): number;
  /** True the first time the party of `key` is to be told of its hold for `why` (noted then); false after. */
  tellOnce(key: string, why: string): boolean;
  /** Why the party of `key` was told of its hold, when it was. */
  toldWhy(key: string): string | undefined;
  /** What `key` held is served or gone: its told mark goes. */
  forget(key: string): void;
  /** Stops every timer; the work stays parked (a message stays in the inbox for the next run). */
  stop(): void;
}

export const makeHolds = <W>(options: {
  clock: Clock;
  requeue: (work: W) => void;
  /** The stored list of told marks (the memory's `holds`), kept in step. */
  told: ToldHold[];
}): Holds<W> => {
  const { clock, requeue, told } = options;
  const parked = new Map<string, W[]>();
  const timers = new Map<string, { until: number; disarm: () => void }>();
  const markOf = (key: string) => told.findIndex(mark => mark.key === key);
  const forget = (key: string) => {
    const index = markOf(key);
    if (index !== -1) told.splice(index, 1);
  };
  const release = (key: string) => {
    timers.get(key)?.disarm();
    timers.delete(key);
    forget(key);
    const works = parked.get(key) ?? [];
    parked.delete(key);
    for (const work of works) requeue(work);
  };
  const bound = () => {
    while (told.length > TOLD_KEPT) {
      const index = told.findIndex(mark => !parked.has(mark.key));
      if (index === -1) return;
      told.splice(index, 1);
    }
  };
  return harden({
    park(key: string, work: W, until?: number) {
      const list = parked.get(key) ?? [];
      list.push(work);
      parked.set(key, list);
      if (until === undefined) return;
      const armed = timers.get(key);
      if (armed !== undefined && armed.until >= until) return;
      armed?.disarm();
      timers.set(key, {
        until,
        disarm: clock.at(until, () => {
          timers.delete(key);
          release(key);
        }),
      });
    },
    release,
    count: (key: string) => parked.get(key)?.length ?? 0,
    tellOnce(key: string, why: string) {
      const index = markOf(key);
      if (index !== -1 && told[index]!.why === why) return false;
      if (index !== -1) told.splice(index, 1);
      told.push({ key, why });
      bound();
      return true;
    },
    toldWhy: (key: string) => told[markOf(key)]?.why,
    forget,
    stop() {
      for (const { disarm } of timers.values()) disarm();
      timers.clear();
    },
  });
};
harden(makeHolds);

const isToldHold = (value: unknown): value is ToldHold => {
  if (value === null || typeof value !== 'object') return false;
  const mark = value as Record<string, unknown>;
  return typeof mark.key === 'string' && typeof mark.why === 'string';
};

/** The stored marks that read, and how many did not (none when absent). */
export const readToldHolds = (value: unknown): { holds: ToldHold[]; lost: number } => {
  if (!Array.isArray(value)) return { holds: [], lost: 0 };
  const holds = value
    .filter(isToldHold)
    .map(({ key, why }) => ({ key, why }))
    // One mark per key: a later duplicate is left out as damaged.
    .filter((mark, index, all) => all.findIndex(each => each.key === mark.key) === index);
  return { holds, lost: value.length - holds.length };
};
harden(readToldHolds);
