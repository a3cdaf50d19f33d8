/**
 * The `schedule` tool's wake-ups: the model asks to be woken at a time or
 * after a delay, with a note. Each is kept in the agent's store (so it
 * survives a restart) with the message that led to it, armed on the clock,
 * and when it is due a turn of its own starts with the note; its answer
 * goes to that message's sender. A bound keeps how many may be pending.
 */
import type { Clock } from '../lifecycle/clock.js';
import type { Origin } from '../serving/notices.js';

/** As stored: the origin's number is a string (JSON has no bigint). */
export interface WakeUp {
  id: string;
  /** When it is due (ms since the epoch). */
  at: number;
  note: string;
  /** When it was set. */
  setAt: number;
  origin?: { number: string; sender: string };
}

/** A wake-up more than a year away is refused: almost surely a mistake of units. */
const MAX_HORIZON_MS = 366 * 24 * 60 * 60 * 1000;
const MAX_NOTE_CHARS = 2_000;

export const isWakeUp = (value: unknown): value is WakeUp => {
  if (value === null || typeof value !== 'object') return false;
  const record = value as Record<string, unknown>;
  const origin = record.origin as Record<string, unknown> | undefined;
  return (
    typeof record.id === 'string' &&
    typeof record.at === 'number' &&
    typeof record.note === 'string' &&
    typeof record.setAt === 'number' &&
    (origin === undefined ||
      (typeof origin.number === 'string' &&
        /^\d+$/.test(origin.number) &&
        typeof origin.sender === 'string'))
  );
};
harden(isWakeUp);

export const originOf = (wakeUp: WakeUp): Origin | undefined =>
  wakeUp.origin === undefined
    ? undefined
    : { number: BigInt(wakeUp.origin.number), sender: wakeUp.origin.sender };
harden(originOf);

export interface ScheduleArgs {
  note: string;
  delaySeconds: number | undefined;
  at: string | undefined;
  cancel: string | undefined;
}

export interface WakeUps {
  /** The `schedule` tool. */
  schedule(args: ScheduleArgs, origin: Origin | undefined): Readonly<Record<string, unknown>>;
  /** Takes a due wake-up out of the store (undefined when it was cancelled meanwhile). */
  take(id: string): WakeUp | undefined;
  /** Puts a taken wake-up back (its turn was stopped before it was done): due again at once. */
  putBack(entry: WakeUp): void;
  /** Arms every stored wake-up (at start, after loading the store). */
  armAll(): void;
  /** Disarms every timer (on cancel). */
  stop(): void;
  describe(): string[];
}

export const makeWakeUps = (options: {
  /** The stored list, changed in place (the memory saves it). */
  stored: WakeUp[];
  clock: Clock;
  max: number;
  /** Called when one is due. */
  onDue: (id: string) => void;
}): WakeUps => {
  const { stored, clock, max, onDue } = options;
  const timers = new Map<string, () => void>();
  let stopped = false;
  const nextId = () => {
    const used = new Set(stored.map(entry => entry.id));
    let n = stored.length + 1;
    while (used.has(`w${n}`)) n += 1;
    return `w${n}`;
  };
  const arm = (entry: WakeUp) => {
    if (stopped || timers.has(entry.id)) return;
    timers.set(
      entry.id,
      clock.at(entry.at, () => {
        timers.delete(entry.id);
        onDue(entry.id);
      }),
    );
  };
  const remove = (id: string): WakeUp | undefined => {
    const index = stored.findIndex(entry => entry.id === id);
    if (index === -1) return undefined;
    const [entry] = stored.splice(index, 1);
    timers.get(id)?.();
    timers.delete(id);
    return entry;
  };

  const schedule: WakeUps['schedule'] = (args, origin) => {
    if (args.cancel !== undefined) {
      const gone = remove(args.cancel);
      if (gone === undefined)
        throw new Error(
          `No pending wake-up ${JSON.stringify(args.cancel)}; pending: ${stored.map(entry => entry.id).join(', ') || 'none'}`,
        );
      return harden({ cancelled: gone.id, note: gone.note });
    }
    const now = clock.now();
    if ((args.delaySeconds === undefined) === (args.at === undefined)) {
      throw new Error(
        'Give either delaySeconds (a number of seconds from now) or at (an ISO 8601 time such as 2026-05-01T09:00:00Z), not both and not neither',
      );
    }
    let at: number;
    if (args.delaySeconds !== undefined) {
      if (!Number.isFinite(args.delaySeconds) || args.delaySeconds <= 0)
        throw new Error('delaySeconds must be a positive number of seconds');
      at = now + Math.round(args.delaySeconds * 1000);
    } else {
      at = Date.parse(args.at!);
      if (Number.isNaN(at))
        throw new Error(
          `at must be an ISO 8601 time such as 2026-05-01T09:00:00Z; got ${JSON.stringify(args.at)}`,
        );
      if (at <= now)
        throw new Error(`${args.at} has passed already; it is now ${new Date(now).toISOString()}`);
    }
    if (at - now > MAX_HORIZON_MS) throw new Error('A wake-up may be at most a year away');
    if (args.note.trim() === '') throw new Error('note must say what to do when woken');
    if (args.note.length > MAX_NOTE_CHARS)
      throw new Error(`note must be at most ${MAX_NOTE_CHARS} characters`);
    if (stored.length >= max) {
      throw new Error(
        `${stored.length} wake-ups are pending already, the most allowed (LAL_MAX_WAKE_UPS); cancel one first (schedule with cancel: "<id>")`,
      );
    }
    const entry: WakeUp = {
      id: nextId(),
      at,
      note: args.note,
      setAt: now,
      ...(origin === undefined
        ? {}
        : { origin: { number: String(origin.number), sender: origin.sender } }),
    };
    stored.push(entry);
    stored.sort((a, b) => a.at - b.at);
    arm(entry);
    return harden({
      scheduled: entry.id,
      at: new Date(at).toISOString(),
      note: entry.note,
      tellsWhenDue: origin?.sender ?? 'HOST',
    });
  };

  return {
    schedule,
    take: id => remove(id),
    putBack(entry) {
      if (stored.some(other => other.id === entry.id)) return;
      stored.push(entry);
      stored.sort((a, b) => a.at - b.at);
      arm(entry);
    },
    armAll: () => stored.forEach(arm),
    stop() {
      stopped = true;
      for (const cancel of timers.values()) cancel();
      timers.clear();
    },
    describe: () =>
      stored.map(
        entry =>
          `${entry.id} at ${new Date(entry.at).toISOString()} for ${entry.origin?.sender ?? 'HOST'}: ${JSON.stringify(entry.note.length > 120 ? `${entry.note.slice(0, 120)}…` : entry.note)}`,
      ),
  };
};
harden(makeWakeUps);

/** The text a due wake-up's turn starts with. */
export const wakeUpNotice = (entry: WakeUp): string => {
  const origin = entry.origin;
  const who = origin?.sender ?? 'HOST';
  const setFor = origin === undefined ? '' : ` while serving message #${origin.number} from ${who}`;
  return [
    `WAKE-UP ${entry.id}: the time you set has come (${new Date(entry.at).toISOString()}; set at ${new Date(entry.setAt).toISOString()}${setFor}).`,
    `Your note: ${JSON.stringify(entry.note)}`,
    `Next: do what the note says, then tell ${who} with send("${who}", …) (message #${origin?.number ?? '?'} may be gone).`,
  ].join('\n');
};
harden(wakeUpNotice);

/** The `schedule` tool's arguments, checked (a number given as text is read as one). */
export const readScheduleArgs = (args: Readonly<Record<string, unknown>>): ScheduleArgs => {
  const text = (name: string): string | undefined => {
    const value = args[name];
    if (value === undefined || value === null || value === '') return undefined;
    if (typeof value !== 'string') throw new Error(`${name} must be a string`);
    return value;
  };
  const rawDelay = args.delaySeconds;
  let delaySeconds: number | undefined;
  if (rawDelay !== undefined && rawDelay !== null && rawDelay !== '') {
    delaySeconds =
      typeof rawDelay === 'number'
        ? rawDelay
        : typeof rawDelay === 'string'
          ? Number(rawDelay)
          : Number.NaN;
    if (!Number.isFinite(delaySeconds)) throw new Error('delaySeconds must be a number of seconds');
  }
  const cancel = text('cancel');
  const note = text('note');
  if (cancel === undefined && note === undefined)
    throw new Error('note is required: what to do when woken');
  return { note: note ?? '', delaySeconds, at: text('at'), cancel };
};
harden(readScheduleArgs);
