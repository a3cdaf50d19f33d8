/**
 * The `schedule` tool's wake-ups: the model asks to be woken at a time or
 * after a delay, every so often (a period or a cron expression), at the
 * heartbeat (an item of its checklist), or when something happens (mail
 * from a sender, a change in a directory), with a note. Each is kept in the
 * agent's store (so it survives a restart) with the message that led to it,
 * armed on the clock, and when it is due a turn of its own starts with the
 * note; its answer goes to that message's sender (docs/behaviour.md 7.8).
 * Runs missed while the agent was down are told as one turn (or skipped);
 * a bound keeps how many may be active, a minimum period how often.
 */
import { DEFAULT_SCHEDULE_SETTINGS, type ScheduleSettings } from '../settings/schedule-settings.js';
import type { Clock } from '../lifecycle/clock.js';
import type { Origin } from '../mail/origin.js';
import type { BuiltinArgs } from '../agent-tools/builtin-schemas.js';
import { describeSlots, partyOf, slotRefusal } from '../peers/party-slots.js';
import { onTheClock, readEvery, readUntil, runsUntil, type Every } from './recurrence.js';
import { advanceRun, firstRun, resumedAt } from './run-times.js';
import { describeWakeUp, everyOf, isCheck, isTrigger, type WakeUp } from './wake-up-record.js';
import { makeWakeUpTimers, type WakeUpTimers } from './wake-up-timers.js';

const MAX_NOTE_CHARS = 2_000;

export interface ScheduleArgs {
  note: string;
  delaySeconds: number | undefined;
  at: string | undefined;
  cancel: string | undefined;
  /** A period, cron expression, "heartbeat" or trigger (./recurrence.ts). */
  every?: string | undefined;
  /** An end: a time or a count of runs (the model writes it at the end of `every`). */
  until?: string | undefined;
}

/** A due wake-up as its turn sees it: the entry as it was, and how many runs it stands for. */
export interface TakenWakeUp {
  entry: WakeUp;
  /** Runs due since `since` told in this one turn (1 when on time). */
  missed: number;
  since: number;
  /** A trigger's events since its last turn. */
  events: number;
  /** Whether this was its last run. */
  last: boolean;
}

export interface WakeUps {
  /** The `schedule` tool. */
  /** `read`: the label of the turn that sets it (what it had read that did not come from the HOST), kept with it. */
  schedule(
    args: ScheduleArgs,
    origin: Origin | undefined,
    read?: string,
  ): Readonly<Record<string, unknown>>;
  /** Takes a due wake-up (a one-shot out of the store, a recurring one moved to its next run); undefined when gone or paused. */
  take(id: string): WakeUp | undefined;
  /** The same, with how many runs it stands for (catch-up) and whether it was the last. */
  takeRun(id: string): TakenWakeUp | undefined;
  /** The heartbeat: the checklist items due now, each moved to its next check (none: no turn). */
  takeChecks(): WakeUp[];
  /** Puts a taken wake-up back (its turn was stopped before it was done): due again at once. */
  putBack(entry: WakeUp): void;
  /** A message arrived from `sender` (by pet name): its triggers fire, at most once per minimum period. */
  mailFrom(sender: string): void;
  /** A name appeared or changed in the directory at `path`: its triggers fire likewise. */
  changed(path: string): void;
  /** The directories "change in" triggers watch (to follow their name changes). */
  watched(): string[];
  /** Arms every stored wake-up (at start, after loading the store); runs missed meanwhile are due at once, or skipped. */
  armAll(): void;
  /** Disarms every timer (on cancel). */
  stop(): void;
  describe(): string[];
  /** For help(): each party's count against its bound (behaviour 9.12); none when there is none. */
  parties(): string[];
  /** The HOST's hand: set one aside, take it up again, or end it. Returns what was done. */
  pause(id: string): string;
  resume(id: string): string;
  revoke(id: string): string;
}

/** What the parts of makeWakeUps share. */
interface Schedules {
  stored: WakeUp[];
  clock: Clock;
  settings: ScheduleSettings;
  hostName: string;
  max: number;
  timers: WakeUpTimers;
  find(id: string): WakeUp | undefined;
  /** Out of the store and disarmed; throws for an id that is not there. */
  remove(id: string): WakeUp;
  /** Soonest first, and armed. */
  keep(entry: WakeUp): void;
  onWatchedChange: (() => void) | undefined;
  /** How many ids have been made (the memory keeps it): an id names one wake-up for good. */
  counted: { wakeUpsMade?: number };
}

/** The highest number among the pending ids (`w7`: 7), 0 for none. */
const highestPending = (stored: readonly WakeUp[]): number =>
  Math.max(0, ...stored.map(entry => Number(/^w(\d+)$/.exec(entry.id)?.[1] ?? 0)));

const makeScheduleTool =
  (schedules: Schedules): WakeUps['schedule'] =>
  (args, origin, label) => {
    const { stored, clock, settings, hostName } = schedules;
    if (args.cancel !== undefined) {
      const setter = schedules.find(args.cancel)?.origin?.sender ?? hostName;
      // A peer's turn ends only that peer's wake-ups (docs/behaviour.md 7.8).
      if (origin !== undefined && origin.sender !== hostName && setter !== origin.sender)
        throw new Error(
          `${args.cancel} was set for ${setter}, not for ${origin.sender}: only its setter or the HOST can cancel it`,
        );
      const gone = schedules.remove(args.cancel);
      return harden({ cancelled: gone.id, note: gone.note });
    }
    const now = clock.now();
    const read = args.every === undefined ? undefined : readEvery(args.every, settings.minPeriodMs);
    const untilText = args.until ?? read?.until;
    if (read === undefined && untilText !== undefined)
      throw new Error('until goes with every: it says when a recurring wake-up stops');
    const at = firstRun(args, now, read?.every, settings);
    if (args.note.trim() === '') throw new Error('note must say what to do when woken');
    if (args.note.length > MAX_NOTE_CHARS)
      throw new Error(`note must be at most ${MAX_NOTE_CHARS} characters`);
    const end = untilText === undefined ? undefined : readUntil(untilText, now);
    // Each party its own slots: a peer filling its own never takes the HOST's (behaviour 9.12).
    const full = slotRefusal({
      held: stored.map(entry => partyOf(entry.origin, hostName)),
      party: partyOf(origin, hostName),
      max: schedules.max,
      what: 'wake-ups are pending',
      setting: 'LAL_MAX_WAKE_UPS',
      free: 'cancel one first (schedule with cancel: "<id>")',
    });
    if (full !== undefined) throw new Error(full);
    // Past every id made, one done or cancelled too (issue 45); a memory from before the count was
    // kept goes on from its highest pending id.
    const n = Math.max(schedules.counted.wakeUpsMade ?? 0, highestPending(stored)) + 1;
    schedules.counted.wakeUpsMade = n;
    const entry: WakeUp = {
      id: `w${n}`,
      at,
      note: args.note,
      setAt: now,
      ...(origin === undefined
        ? {}
        : { origin: { number: String(origin.number), sender: origin.sender } }),
      ...(read === undefined ? {} : { every: read.text, runs: 0 }),
      ...(read?.skipMissed === true ? { skipMissed: true } : {}),
      ...(end ?? {}),
      ...(label === undefined ? {} : { read: label }),
    };
    schedules.keep(entry);
    if (read?.every.kind === 'change') schedules.onWatchedChange?.();
    const when =
      read === undefined
        ? { at: new Date(at).toISOString() }
        : isTrigger(entry)
          ? { every: read.text }
          : { every: read.text, first: new Date(at).toISOString() };
    return harden({
      scheduled: entry.id,
      ...when,
      ...(end === undefined ? {} : { until: untilText }),
      note: entry.note,
      tellsWhenDue: origin?.sender ?? 'HOST',
    });
  };

const makeRunTaking = (schedules: Schedules) => {
  const { clock, settings, timers } = schedules;
  const takeRun = (id: string): TakenWakeUp | undefined => {
    const entry = schedules.find(id);
    if (entry === undefined || entry.paused === true) return undefined;
    const snapshot: WakeUp = { ...entry };
    const every = everyOf(entry);
    if (every === undefined) {
      schedules.remove(id);
      return { entry: snapshot, missed: 1, since: entry.at, events: 0, last: true };
    }
    const events = entry.events ?? 0;
    if (isTrigger(entry) && events === 0) return undefined;
    entry.events = 0;
    timers.disarm(id);
    const { missed, goesOn } = advanceRun(entry, every, clock.now(), settings);
    if (goesOn) schedules.keep(entry);
    else schedules.remove(id);
    return { entry: snapshot, missed, since: snapshot.at, events, last: !goesOn };
  };
  const takeChecks = (): WakeUp[] => {
    const now = clock.now();
    const due = schedules.stored.filter(
      entry => isCheck(entry) && entry.paused !== true && entry.at <= now,
    );
    const taken = due.map(entry => {
      const snapshot = { ...entry };
      const { goesOn } = advanceRun(entry, everyOf(entry)!, now, settings);
      if (goesOn) schedules.keep(entry);
      else schedules.remove(entry.id);
      return snapshot;
    });
    timers.rearmHeartbeat();
    return taken;
  };
  const putBack = (entry: WakeUp) => {
    const present = schedules.find(entry.id);
    if (present === undefined) {
      schedules.keep(entry);
      return;
    }
    // A recurring one stopped part-way: due again at once (then held by whatever stopped it).
    present.at = Math.min(present.at, clock.now());
    if (isTrigger(present)) present.events = Math.max(1, present.events ?? 0);
    timers.disarm(present.id);
    schedules.keep(present);
  };
  return { takeRun, takeChecks, putBack };
};

const makeTriggers = (schedules: Schedules) => {
  const watching = (entry: WakeUp, kind: 'mail' | 'change', key: string) => {
    const every = everyOf(entry);
    if (every?.kind === 'mail') return kind === 'mail' && every.sender === key;
    return every?.kind === 'change' && kind === 'change' && every.path === key;
  };
  const fire = (kind: 'mail' | 'change', key: string) => {
    for (const entry of schedules.stored) {
      if (entry.paused === true || !watching(entry, kind, key)) continue;
      entry.events = (entry.events ?? 0) + 1;
      // At most once per minimum period: events meanwhile wait for the same turn.
      schedules.timers.arm(entry);
    }
  };
  return {
    mailFrom: (sender: string) => fire('mail', sender),
    changed: (path: string) => fire('change', path.replace(/\/+$/, '')),
    watched: () => [
      ...new Set(
        schedules.stored.flatMap(entry => {
          const every = everyOf(entry);
          return every?.kind === 'change' && entry.paused !== true ? [every.path] : [];
        }),
      ),
    ],
  };
};

const makeHostHand = (schedules: Schedules) => {
  const { timers } = schedules;
  const exists = (id: string) => schedules.find(id) ?? schedules.remove(id);
  return {
    pause(id: string) {
      const entry = exists(id);
      if (entry.paused === true) return `${id} is paused already`;
      entry.paused = true;
      timers.disarm(id);
      timers.rearmHeartbeat();
      schedules.onWatchedChange?.();
      return `paused ${id}`;
    },
    resume(id: string) {
      const entry = exists(id);
      if (entry.paused !== true) return `${id} is active already`;
      delete entry.paused;
      const every = everyOf(entry);
      entry.at = resumedAt(entry, every, schedules.clock.now(), schedules.settings);
      schedules.keep(entry);
      schedules.onWatchedChange?.();
      const next =
        every === undefined || isTrigger(entry) ? '' : `; next ${new Date(entry.at).toISOString()}`;
      return `resumed ${id}${next}`;
    },
    revoke: (id: string) => `revoked ${schedules.remove(id).id}`,
  };
};

/** Runs missed while the agent was down, of a schedule that skips them: on to the next, unannounced. */
const skipMissed = (schedules: Schedules, entry: WakeUp, every: Every | undefined, now: number) => {
  if (entry.skipMissed !== true || every === undefined || !onTheClock(every) || entry.at > now)
    return;
  const { next } = runsUntil(every, entry.at, now, schedules.settings.timeZone);
  if (next === undefined || (entry.endsAt !== undefined && next > entry.endsAt))
    schedules.remove(entry.id);
  else entry.at = next;
};

export const makeWakeUps = (options: {
  /** The stored list, changed in place (the memory saves it). */
  stored: WakeUp[];
  clock: Clock;
  max: number;
  /** Called when one is due (HEARTBEAT_ID for the heartbeat's checklist). */
  onDue: (id: string) => void;
  settings?: ScheduleSettings;
  /** Told when the directories watched by "change in" triggers change. */
  onWatchedChange?: () => void;
  /** How the daemon names the HOST, whose turns may cancel any wake-up (others only their own). */
  hostName?: string;
  /** The count of ids made, changed in place (the memory saves it); none: a count of its own. */
  counted?: { wakeUpsMade?: number };
}): WakeUps => {
  const { stored, clock, onDue } = options;
  const timers = makeWakeUpTimers({ stored, clock, onDue });
  const notFound = (id: string): never => {
    throw new Error(
      `No pending wake-up ${JSON.stringify(id)}; pending: ${stored.map(entry => entry.id).join(', ') || 'none'}`,
    );
  };
  const schedules: Schedules = {
    stored,
    clock,
    settings: options.settings ?? DEFAULT_SCHEDULE_SETTINGS,
    hostName: options.hostName ?? 'HOST',
    max: options.max,
    counted: options.counted ?? {},
    timers,
    find: id => stored.find(entry => entry.id === id),
    remove(id) {
      const index = stored.findIndex(entry => entry.id === id);
      if (index === -1) return notFound(id);
      const [entry] = stored.splice(index, 1) as [WakeUp];
      timers.disarm(id);
      if (isCheck(entry)) timers.rearmHeartbeat();
      if (everyOf(entry)?.kind === 'change') options.onWatchedChange?.();
      return entry;
    },
    keep(entry) {
      if (!stored.includes(entry)) stored.push(entry);
      stored.sort((a, b) => a.at - b.at);
      timers.arm(entry);
    },
    onWatchedChange: options.onWatchedChange,
  };
  const runs = makeRunTaking(schedules);
  return {
    schedule: makeScheduleTool(schedules),
    take: id => runs.takeRun(id)?.entry,
    ...runs,
    ...makeTriggers(schedules),
    ...makeHostHand(schedules),
    armAll() {
      const now = clock.now();
      for (const entry of [...stored]) skipMissed(schedules, entry, everyOf(entry), now);
      stored.sort((a, b) => a.at - b.at);
      stored.forEach(timers.arm);
    },
    stop: timers.stop,
    describe: () => stored.map(describeWakeUp),
    parties: () =>
      stored.length === 0
        ? []
        : [
            `per party (LAL_MAX_WAKE_UPS each): ${describeSlots(
              stored.map(entry => partyOf(entry.origin, schedules.hostName)),
              schedules.hostName,
              schedules.max,
            )}`,
          ],
  };
};
harden(makeWakeUps);

/** Where a note's words came from, when not from the HOST alone (docs/behaviour.md 9.11). */
const labelOf = (entry: WakeUp): string =>
  entry.read === undefined
    ? ''
    : ` (written after reading ${entry.read}, which did not come from the HOST)`;

/** The label a schedule's turn carries: the first of its entries' (undefined: the HOST's words alone). */
export const readOfSchedules = (entries: readonly WakeUp[]): string | undefined => {
  const labelled = entries.find(entry => entry.read !== undefined);
  return labelled === undefined
    ? undefined
    : `the note of ${labelled.id}, set after reading ${labelled.read}`;
};
harden(readOfSchedules);

/** The text a due wake-up's turn starts with. */
export const wakeUpNotice = (
  entry: WakeUp,
  run?: Pick<TakenWakeUp, 'missed' | 'since' | 'events' | 'last'>,
): string => {
  const origin = entry.origin;
  const who = origin?.sender ?? 'HOST';
  const setFor = origin === undefined ? '' : ` while serving message #${origin.number} from ${who}`;
  const recurring =
    entry.every === undefined
      ? ''
      : ` It recurs: every ${entry.every}${run?.last === true ? '; this was its last run' : ''}.`;
  const caughtUp =
    run !== undefined && run.missed > 1
      ? ` ${run.missed} runs fell due since ${new Date(run.since).toISOString()} while I could not run: this one turn stands for them all.`
      : '';
  const events =
    run !== undefined && run.events > 1 ? ` It fired ${run.events} times since the last turn.` : '';
  return [
    `WAKE-UP ${entry.id}: the time you set has come (${new Date(entry.at).toISOString()}; set at ${new Date(entry.setAt).toISOString()}${setFor}).${recurring}${caughtUp}${events}`,
    `Your note: ${JSON.stringify(entry.note)}${labelOf(entry)}`,
    `Next: do what the note says, then tell ${who} with send("${who}", …) (message #${origin?.number ?? '?'} may be gone).`,
  ].join('\n');
};
harden(wakeUpNotice);

/** The heartbeat's turn: the checklist items due, and to stay quiet unless something needs their setter. */
export const heartbeatNotice = (items: readonly WakeUp[], who: string): string =>
  [
    `HEARTBEAT: ${items.length} item${items.length === 1 ? '' : 's'} of your checklist to look at now:`,
    ...items.map(item => `- ${item.id}: ${JSON.stringify(item.note)}${labelOf(item)}`),
    `Look at each. Only if something needs ${who}, tell them with send("${who}", …); otherwise end without a word: nothing is sent.`,
  ].join('\n');
harden(heartbeatNotice);

/**
 * The `schedule` tool's arguments as its record read them (src/agent-tools/builtin-schemas.ts:
 * text, a finite number, "" left out), with the one rule no record states: a note is needed
 * unless it cancels.
 */
export const readScheduleArgs = (values: BuiltinArgs<'schedule'>): ScheduleArgs => {
  const { note, delaySeconds, at, cancel, every } = values;
  if (cancel === undefined && note === undefined)
    throw new Error('note is required: what to do when woken');
  return {
    note: note ?? '',
    delaySeconds,
    at,
    cancel,
    ...(every === undefined ? {} : { every }),
  };
};
harden(readScheduleArgs);
