/**
 * `timestamp`: the current time as an ISO string (UTC) and as the wall-clock
 * time in an IANA time zone (the daemon's own zone by default).
 */
import type { Env } from '../providers/types.js';
import { makeFaeTool } from './lib/make-fae-tool.js';
import { optional, parameters, text, type ValuesOf } from './lib/fae-parameters.js';

const toolName = 'timestamp';

/** Checks an IANA zone name; Intl throws a RangeError for an unknown zone. */
function makeZoneFormat(timeZone: string): Intl.DateTimeFormat {
  try {
    return new Intl.DateTimeFormat('en-US', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
      timeZoneName: 'longOffset',
    });
  } catch {
    throw Error(
      `${toolName}: unknown time zone ${JSON.stringify(timeZone)}; use an IANA name such as "Europe/Paris" or "UTC"`,
    );
  }
}

/** `2026-03-01 14:05:09` and `GMT+01:00` for a moment in a zone. */
function renderInZone(now: Date, format: Intl.DateTimeFormat) {
  const parts: Record<string, string> = {};
  for (const part of format.formatToParts(now)) parts[part.type] = part.value;
  const local = `${parts.year}-${parts.month}-${parts.day} ${parts.hour}:${parts.minute}:${parts.second}`;
  return { local, utcOffset: parts.timeZoneName ?? 'GMT' };
}

const timestampParameters = {
  // Empty, as left out: the daemon's own zone.
  timeZone: optional(
    text(
      'IANA time zone name, e.g. "Europe/Paris", "America/New_York", "UTC". Default: the daemon\'s own zone.',
      { allowEmpty: true },
    ),
  ),
};

function run({ timeZone: requested }: ValuesOf<typeof timestampParameters>) {
  const timeZone =
    requested === undefined || requested === ''
      ? new Intl.DateTimeFormat().resolvedOptions().timeZone
      : requested;
  const format = makeZoneFormat(timeZone);
  const now = new Date();
  const { local, utcOffset } = renderInZone(now, format);
  return {
    iso: now.toISOString(),
    epochMs: now.getTime(),
    timeZone: format.resolvedOptions().timeZone,
    local,
    utcOffset,
  };
}

export const make = (_powers?: unknown, _context?: unknown, _options?: { env?: Env }) => {
  return makeFaeTool({
    name: toolName,
    description:
      'Tell the current date and time: ISO 8601 in UTC, and the local wall-clock time in a time zone.',
    parameters: parameters(timestampParameters),
    returns: '{ iso, epochMs, timeZone, local, utcOffset }',
    help: [
      'iso is the current instant in UTC; local is "YYYY-MM-DD HH:mm:ss" in timeZone',
      "(an IANA name; the daemon's zone when left out). An unknown zone is an error.",
    ].join('\n'),
    run,
  });
};
harden(make);
