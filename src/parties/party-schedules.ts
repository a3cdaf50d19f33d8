/**
 * The `schedule` tool as a turn serving another party holds it
 * (docs/behaviour.md 9.6): its wake-ups serve that party (their turns hold
 * its facet again), a "change in" trigger watches a directory among the
 * party's own names, and a "mail from" trigger waits for the party's own
 * mail: the HOST's directories and others' mail are not the party's to
 * watch.
 */
import type { ScheduleArgs, WakeUps } from '../schedule/wake-ups.js';

const CHANGE_IN = /^\s*change in\s+/i;
const MAIL_FROM = /^\s*mail from\s+(\S+)/i;

export const partySchedules = (
  wakeUps: Pick<WakeUps, 'schedule'>,
  party: string,
  directory: readonly string[],
): Pick<WakeUps, 'schedule'> =>
  harden({
    schedule: (args: ScheduleArgs, origin: Parameters<WakeUps['schedule']>[1], read?: string) => {
      const every = args.every;
      if (every === undefined) return wakeUps.schedule(args, origin, read);
      const from = MAIL_FROM.exec(every)?.[1];
      if (from !== undefined && from !== party)
        throw new Error(
          `every: "mail from ${from}": serving ${party}, a trigger waits for mail from ${party}`,
        );
      const placed = every.replace(CHANGE_IN, match => `${match}${directory.join('/')}/`);
      return wakeUps.schedule({ ...args, every: placed }, origin, read);
    },
  });
harden(partySchedules);
