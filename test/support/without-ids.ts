/**
 * A text with its random ids blanked out: the daemon double's formula and
 * message ids (hex) and the short ids of unnamed senders, and the wire
 * double's tool-call and answer ids (a base-36 clock). A short secret of
 * digits turns up in those by chance now and then, so a test that looks for
 * a leaked secret looks in what is left.
 */
export const withoutIds = (text: string): string =>
  text
    .replace(/\b(?:call_|toolu_|chatcmpl-|msg_|req_)[0-9a-z]+/g, '<id>')
    .replace(/[0-9a-f]{8,}/g, '<id>');
