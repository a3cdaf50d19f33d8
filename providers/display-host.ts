/**
 * LAL_HOST as a person is shown it: without any user:password part, so a token written into
 * the address never reaches a message or a log. A leaf the error texts, their hints and the
 * start-up checks all read.
 */

/** The host without any user:password part. */
export const displayHost = (host: string): string => {
  try {
    const url = new URL(host);
    url.username = '';
    url.password = '';
    return url.toString().replace(/\/$/, '');
  } catch {
    return '(unparseable LAL_HOST)';
  }
};
harden(displayHost);
