/**
 * One schedule as the agent's store keeps it, and what can be read from it
 * alone: whether a stored record is one, the message it answers, what its
 * `every` says, and its line in help().
 */
import type { Origin } from '../mail/origin.js';
import { readEvery, type Every } from './recurrence.js';

/** As stored: the origin's number is a string (JSON has no bigint). */
export interface WakeUp {
  id: string;
  /** When it is next due (ms since the epoch); for a trigger, the earliest it may fire again. */
  at: number;
  note: string;
  /** When it was set. */
  setAt: number;
  origin?: { number: string; sender: string };
  /** Recurring: the normalised `every` (./recurrence.ts); absent for a one-shot. */
  every?: string;
  /** Runs missed while the agent was down are skipped, not told as one turn. */
  skipMissed?: boolean;
  /** No run after this time. */
  endsAt?: number;
  /** Runs left before it ends. */
  runsLeft?: number;
  /** Runs so far. */
  runs?: number;
  /** Set aside by the HOST: not armed until resumed. */
  paused?: boolean;
  /** A trigger's events not yet told in a turn. */
  events?: number;
  /** The label of the turn that set it, when it had read what did not come from the HOST: its turns carry it (src/history/word-labels.ts). */
  read?: string;
}

const isString = (value: unknown) => typeof value === 'string';
const isNumber = (value: unknown) => typeof value === 'number';
const isBoolean = (value: unknown) => typeof value === 'boolean';
const OPTIONAL_FIELDS: Readonly<Record<string, (value: unknown) => boolean>> = {
  every: isString,
  skipMissed: isBoolean,
  endsAt: isNumber,
  runsLeft: isNumber,
  runs: isNumber,
  paused: isBoolean,
  events: isNumber,
  read: isString,
};

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
        typeof origin.sender === 'string')) &&
    Object.entries(OPTIONAL_FIELDS).every(
      ([name, isRight]) => record[name] === undefined || isRight(record[name]),
    )
  );
};
harden(isWakeUp);

export const originOf = (wakeUp: WakeUp): Origin | undefined =>
  wakeUp.origin === undefined
    ? undefined
    : { number: BigInt(wakeUp.origin.number), sender: wakeUp.origin.sender };
harden(originOf);

/** What a stored `every` says (it was read when set, so it reads again). */
export const everyOf = (entry: WakeUp): Every | undefined =>
  entry.every === undefined ? undefined : readEvery(entry.every, 0).every;
harden(everyOf);

/** An item of the heartbeat's checklist. */
export const isCheck = (entry: WakeUp): boolean => everyOf(entry)?.kind === 'heartbeat';
harden(isCheck);

/** A trigger: fired by mail or a directory's change, not by the clock. */
export const isTrigger = (entry: WakeUp): boolean => {
  const kind = everyOf(entry)?.kind;
  return kind === 'mail' || kind === 'change';
};
harden(isTrigger);

/** Its line in help() and the controller's list. */
export const describeWakeUp = (entry: WakeUp): string => {
  const note = JSON.stringify(
    entry.note.length > 120 ? `${entry.note.slice(0, 120)}…` : entry.note,
  );
  const who = entry.origin?.sender ?? 'HOST';
  if (entry.every === undefined)
    return `${entry.id} at ${new Date(entry.at).toISOString()} for ${who}: ${note}`;
  const next =
    entry.paused === true
      ? 'paused'
      : isTrigger(entry)
        ? `${entry.runs ?? 0} run(s)`
        : `next ${new Date(entry.at).toISOString()}, ${entry.runs ?? 0} run(s)`;
  const end = [
    entry.runsLeft === undefined ? '' : `, ${entry.runsLeft} left`,
    entry.endsAt === undefined ? '' : `, until ${new Date(entry.endsAt).toISOString()}`,
    entry.skipMissed === true ? ', missed runs skipped' : '',
  ].join('');
  return `${entry.id} every ${entry.every} (${next}${end}) for ${who}: ${note}`;
};
harden(describeWakeUp);
