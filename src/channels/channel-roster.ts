/**
 * The channels the agent joined: the one owner of what it keeps about each
 * (where it adopted the channel, the name it joined by, its level, the last
 * message it has seen, the mentions it answered), kept over restarts as one
 * versioned JSON string under the agent's own `agent-channels` directory
 * (an older store, which has none, loads with none joined).
 */
import { E } from '@endo/far';
import type { Log } from '../log/log.js';
import { describeError } from '../../providers/describe-error.js';
import { isLevel, type Level } from './channel-levels.js';
import { CHANNELS_DIRECTORY } from '../daemon/own-names.js';

const ROSTER_NAME = 'roster';
const ROSTER_VERSION = 1;
/** Mentions remembered per channel: enough to tell a notification from the watch's copy of it. */
const ANSWERED_KEPT = 64;

export interface JoinedChannel {
  /** The channel's pet name in `agent-channels/`. */
  readonly key: string;
  /** The channel's formula id (one channel, whoever names it). */
  readonly channelId: string;
  /** The name it joined by. */
  readonly join: string;
  /** The channel's name as the chat that told the agent of it names it (absent in a roster kept before it). */
  readonly name?: string;
  level: Level;
  /** The number of the last message seen, as a string; '' for none. */
  lastSeen: string;
  /** Numbers of the messages answered (or being answered), newest last. */
  answered: string[];
  /** Mentions claimed that wait for the channel's bounds or the budgets (./channel-budget.ts): answered after a restart too. */
  waiting?: string[];
  /**
   * Those of `waiting` whose thread has not heard when they will be answered (they waited on the
   * channel's bounds, which its thread is not told of). Absent in a roster kept before it: each
   * mention waiting then had its thread told.
   */
  untold?: string[];
  /** Set when the channel disabled the agent's membership: no longer followed. */
  disabled?: true;
}

const readEntry = (value: unknown): JoinedChannel | undefined => {
  const entry = value as Partial<JoinedChannel> | null;
  if (
    entry === null ||
    typeof entry !== 'object' ||
    typeof entry.key !== 'string' ||
    typeof entry.channelId !== 'string' ||
    typeof entry.join !== 'string' ||
    !isLevel(entry.level)
  )
    return undefined;
  return {
    key: entry.key,
    channelId: entry.channelId,
    join: entry.join,
    ...(typeof entry.name === 'string' ? { name: entry.name } : {}),
    level: entry.level,
    lastSeen: typeof entry.lastSeen === 'string' ? entry.lastSeen : '',
    answered: Array.isArray(entry.answered)
      ? entry.answered.filter((n): n is string => typeof n === 'string')
      : [],
    ...(Array.isArray(entry.waiting)
      ? { waiting: entry.waiting.filter((n): n is string => typeof n === 'string') }
      : {}),
    ...(Array.isArray(entry.untold)
      ? { untold: entry.untold.filter((n): n is string => typeof n === 'string') }
      : {}),
    ...(entry.disabled === true ? { disabled: true as const } : {}),
  };
};

export const makeChannelRoster = (powers: unknown, log: Log) => {
  const joined = new Map<string, JoinedChannel>();
  const path = [CHANNELS_DIRECTORY, ROSTER_NAME];
  const far = () =>
    E(
      powers as {
        has(...path: string[]): Promise<boolean>;
        lookup(path: string[]): Promise<unknown>;
        storeValue(value: unknown, path: string[]): Promise<void>;
        makeDirectory(name: string): Promise<unknown>;
        move(from: string[], to: string[]): Promise<void>;
      },
    );

  return {
    /** Reads what the last run kept; a roster that does not read is logged and left as it is. */
    load: async (): Promise<void> => {
      // A path through a directory that is not there throws: the directory first.
      if (!(await far().has(CHANNELS_DIRECTORY)) || !(await far().has(...path))) return;
      try {
        const stored = JSON.parse(String(await far().lookup(path))) as {
          version?: unknown;
          channels?: unknown;
        };
        if (stored.version !== ROSTER_VERSION || !Array.isArray(stored.channels))
          throw new Error(`version ${String(stored.version)} is not one this agent reads`);
        for (const value of stored.channels) {
          const entry = readEntry(value);
          if (entry === undefined) log('a joined channel in the store did not read; left out');
          else joined.set(entry.key, entry);
        }
      } catch (error) {
        // Never overwritten: kept aside under a name of its own, and this run starts with none.
        const aside = `${ROSTER_NAME}-unread-${Date.now()}`;
        await far().move(path, [CHANNELS_DIRECTORY, aside]);
        log(
          `the joined channels did not read (${describeError(error)}); kept aside as ${CHANNELS_DIRECTORY}/${aside}, none followed again`,
        );
      }
    },
    save: async (): Promise<void> => {
      if (!(await far().has(CHANNELS_DIRECTORY))) await far().makeDirectory(CHANNELS_DIRECTORY);
      const channels = [...joined.values()];
      await far().storeValue(JSON.stringify({ version: ROSTER_VERSION, channels }), path);
    },
    all: (): JoinedChannel[] => [...joined.values()],
    get: (key: string) => joined.get(key),
    byChannelId: (channelId: string) =>
      [...joined.values()].find(entry => entry.channelId === channelId),
    /** A pet name for a new channel, free among those kept. */
    freshKey: (): string => {
      let n = joined.size + 1;
      while (joined.has(`ch-${n}`)) n += 1;
      return `ch-${n}`;
    },
    add: (entry: JoinedChannel) => {
      joined.set(entry.key, entry);
    },
    remove: (key: string) => joined.delete(key),
    /** Marks a message answered; false when it already was (the notification and the watch see one mention). */
    claim: (entry: JoinedChannel, number: string): boolean => {
      if (entry.answered.includes(number)) return false;
      entry.answered.push(number);
      if (entry.answered.length > ANSWERED_KEPT) entry.answered.shift();
      return true;
    },
    /** A claimed mention waits, its thread told when it will be answered or not yet; or no longer waits (false). */
    waits: (entry: JoinedChannel, number: string, state: 'told' | 'untold' | false) => {
      const waiting = (entry.waiting ?? []).filter(one => one !== number);
      const untold = (entry.untold ?? []).filter(one => one !== number);
      if (state !== false) waiting.push(number);
      if (state === 'untold') untold.push(number);
      if (waiting.length > 0) entry.waiting = waiting;
      else delete entry.waiting;
      if (untold.length > 0) entry.untold = untold;
      else delete entry.untold;
    },
    /** Whether a mention's thread has heard when it will be answered: only a waiting one's can have. */
    told: (entry: JoinedChannel, number: string): boolean =>
      (entry.waiting ?? []).includes(number) && !(entry.untold ?? []).includes(number),
    seen: (entry: JoinedChannel, number: string) => {
      if (entry.lastSeen === '' || BigInt(number) > BigInt(entry.lastSeen)) entry.lastSeen = number;
    },
    isNew: (entry: JoinedChannel, number: string) =>
      entry.lastSeen === '' || BigInt(number) > BigInt(entry.lastSeen),
  };
};
harden(makeChannelRoster);
