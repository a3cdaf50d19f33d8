/**
 * Wall-clock fields of an instant in a time zone (LAL_TIME_ZONE), read with
 * Intl so that cron expressions mean what the HOST's clock says, across
 * daylight-saving changes, without a time-zone library.
 */

export interface ZonedFields {
  year: number;
  /** 1 to 12. */
  month: number;
  /** 1 to 31. */
  day: number;
  /** 0 to 23. */
  hour: number;
  minute: number;
  /** 0 (Sunday) to 6. */
  weekday: number;
}

const WEEKDAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const formats = new Map<string, Intl.DateTimeFormat>();

const formatFor = (timeZone: string): Intl.DateTimeFormat => {
  let format = formats.get(timeZone);
  if (format === undefined) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      weekday: 'short',
    });
    formats.set(timeZone, format);
  }
  return format;
};

/** Whether Intl knows the zone ("UTC", "Europe/Paris", …). */
export const isTimeZone = (timeZone: string): boolean => {
  try {
    formatFor(timeZone);
    return true;
  } catch {
    return false;
  }
};
harden(isTimeZone);

export const zonedFields = (time: number, timeZone: string): ZonedFields => {
  const parts: Record<string, string> = {};
  for (const part of formatFor(timeZone).formatToParts(time)) parts[part.type] = part.value;
  return {
    year: Number(parts.year),
    month: Number(parts.month),
    day: Number(parts.day),
    hour: Number(parts.hour) % 24,
    minute: Number(parts.minute),
    weekday: WEEKDAYS.indexOf(parts.weekday ?? ''),
  };
};
harden(zonedFields);
