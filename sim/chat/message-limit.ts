/**
 * A message longer than the daemon's guards take (issue 45): said before sending, with the limit
 * and the message's length, instead of the guard's internal error from send(). The daemon counts
 * a string's length in UTF-16 code units, as `text.length` does.
 */
import { formatCount } from '../../src/usage/format-count.js';
import { MESSAGE_STRING_LIMIT } from '../mail-host/index.js';

/** The line refusing `text`, or undefined when the daemon takes it. */
export const messageTooLong = (text: string, persona: string): string | undefined =>
  text.length <= MESSAGE_STRING_LIMIT
    ? undefined
    : `messages are limited to ${formatCount(MESSAGE_STRING_LIMIT)} characters (this one has ${formatCount(text.length)}): not sent; split it, or put it in a file and have ${persona} read it (/attach readFile <folder>)`;
harden(messageTooLong);
