/**
 * The agent's own words name settings such as LAL_AUTH_TOKEN; Endo's chat
 * reads `_x_` as underline, so such identifiers go in code spans.
 */

// An identifier with an underscore (LAL_HOST, FAE_CWD, num_ctx), not already in a code span.
const IDENTIFIER = /`[^`]*`|\b[A-Za-z][A-Za-z0-9]*(?:_[A-Za-z0-9]+)+\b/g;

export const codeSpans = (text: string): string =>
  text.replace(IDENTIFIER, found => (found.startsWith('`') ? found : `\`${found}\``));
harden(codeSpans);
