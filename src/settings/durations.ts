/**
 * Durations as people write them ("90s", "30m", "2h", "1d", "1h30m",
 * "2 hours"), for recurring wake-ups and the heartbeat. A text that is not
 * one gets a one-line error with an example.
 */

const UNITS: Readonly<Record<string, number>> = {
  s: 1_000,
  sec: 1_000,
  secs: 1_000,
  second: 1_000,
  seconds: 1_000,
  m: 60_000,
  min: 60_000,
  mins: 60_000,
  minute: 60_000,
  minutes: 60_000,
  h: 3_600_000,
  hr: 3_600_000,
  hrs: 3_600_000,
  hour: 3_600_000,
  hours: 3_600_000,
  d: 86_400_000,
  day: 86_400_000,
  days: 86_400_000,
};

/** A whole duration: one or more parts, each a number and a unit, spaces between them allowed. */
const WHOLE = /^(?:\d+(?:\.\d+)?\s*[a-z]+ *)+$/;
/** One part of it: the number and the unit's name. */
const PART = /(\d+(?:\.\d+)?)\s*([a-z]+)/g;

/** Milliseconds, or undefined when `text` is not a duration. */
export const readDuration = (text: string): number | undefined => {
  const compact = text.trim().toLowerCase();
  // Checked whole first, so the parts are read by one pass that always ends (no loop of its own).
  if (!WHOLE.test(compact)) return undefined;
  let total = 0;
  for (const [, amount, name] of compact.matchAll(PART)) {
    const unit = UNITS[name!];
    if (unit === undefined) return undefined;
    total += Number(amount) * unit;
  }
  return total > 0 && Number.isFinite(total) ? Math.round(total) : undefined;
};
harden(readDuration);

/** A duration, or an error saying how to write one. */
export const parseDuration = (text: string, what = 'every'): number => {
  const ms = readDuration(text);
  if (ms === undefined)
    throw new Error(
      `${what}: ${JSON.stringify(text)} is not a duration; write it as people do, e.g. "90s", "30m", "2h" or "1d"`,
    );
  return ms;
};
harden(parseDuration);

/** The shortest way to write `ms` back ("1h30m"). */
export const formatDuration = (ms: number): string => {
  let rest = Math.round(ms / 1000);
  const out: string[] = [];
  for (const [unit, size] of [
    ['d', 86_400],
    ['h', 3_600],
    ['m', 60],
    ['s', 1],
  ] as const) {
    const count = Math.floor(rest / size);
    if (count > 0) out.push(`${count}${unit}`);
    rest -= count * size;
  }
  return out.join('') || '0s';
};
harden(formatDuration);
