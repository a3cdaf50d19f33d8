/**
 * Whether a time zone (LAL_TIME_ZONE) is one Intl knows, so that a wrong
 * setting is told at start; cron.ts reads wall-clock times in it (croner,
 * by Intl), across daylight-saving changes.
 */

/** Whether Intl knows the zone ("UTC", "Europe/Paris", …). */
export const isTimeZone = (timeZone: string): boolean => {
  try {
    // eslint-disable-next-line no-new -- the constructor is the check: it throws on a zone it does not know
    new Intl.DateTimeFormat('en-US', { timeZone });
    return true;
  } catch {
    return false;
  }
};
harden(isTimeZone);
