/**
 * The schedules' settings from the environment (docs/configuration.md):
 * the time zone cron expressions are read in, the shortest period a
 * recurring wake-up or trigger may have, and the heartbeat's period. A bad
 * value is a problem told to the HOST; the default holds instead.
 */
import type { Env } from '../../providers/types.js';
import { readPositiveInteger } from './read-positive-integer.js';
import { readDuration } from './durations.js';
import { isTimeZone } from './zoned-time.js';

/** Settings of the schedules (docs/configuration.md). */
export interface ScheduleSettings {
  /** The zone cron expressions are read in (LAL_TIME_ZONE). */
  timeZone: string;
  /** The shortest period a recurring wake-up or trigger may have (LAL_MIN_SCHEDULE_SECONDS). */
  minPeriodMs: number;
  /** How often the heartbeat looks at its checklist (LAL_HEARTBEAT). */
  heartbeatMs: number;
}

export const DEFAULT_SCHEDULE_SETTINGS: ScheduleSettings = harden({
  timeZone: 'UTC',
  minPeriodMs: 60_000,
  heartbeatMs: 30 * 60_000,
});
harden(DEFAULT_SCHEDULE_SETTINGS);

export const readScheduleSettings = (env: Env, problems: string[]): ScheduleSettings => {
  const defaults = DEFAULT_SCHEDULE_SETTINGS;
  const zone = (env.LAL_TIME_ZONE ?? '').trim();
  let timeZone = defaults.timeZone;
  if (zone !== '') {
    if (isTimeZone(zone)) timeZone = zone;
    else
      problems.push(
        `LAL_TIME_ZONE must be a time zone such as "Europe/Paris" or "UTC", got "${zone}"; using UTC.`,
      );
  }
  const minSeconds = readPositiveInteger(
    env,
    'LAL_MIN_SCHEDULE_SECONDS',
    defaults.minPeriodMs / 1000,
    problems,
  );
  const rawBeat = (env.LAL_HEARTBEAT ?? '').trim();
  let heartbeatMs = defaults.heartbeatMs;
  if (rawBeat !== '') {
    const ms = readDuration(rawBeat);
    if (ms === undefined || ms < minSeconds * 1000)
      problems.push(
        `LAL_HEARTBEAT must be a period such as "30m" or "2h", at least LAL_MIN_SCHEDULE_SECONDS, got "${rawBeat}"; using 30m.`,
      );
    else heartbeatMs = ms;
  }
  return harden({ timeZone, minPeriodMs: minSeconds * 1000, heartbeatMs });
};
harden(readScheduleSettings);
