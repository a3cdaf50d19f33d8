/**
 * Where the recorded session sits in the README: a fenced block between two
 * HTML comments, the command first, then what the simulator printed.
 */
import { makeError, q, X } from '@endo/errors';
import { SESSION_COMMAND } from './readme-session.js';

const START = '<!-- transcript:start (npm run transcript -- --write) -->';
const END = '<!-- transcript:end -->';

/** The README's block for a recorded session. */
export const transcriptBlock = (recorded: string): string =>
  [START, '```', `$ ${SESSION_COMMAND}`, recorded, '```', END].join('\n');
harden(transcriptBlock);

/** The block the README holds now, or undefined when it has none. */
export const readmeBlock = (readme: string): string | undefined => {
  const start = readme.indexOf(START);
  const end = readme.indexOf(END);
  return start < 0 || end < start ? undefined : readme.slice(start, end + END.length);
};
harden(readmeBlock);

/** The README with its block replaced by `block`. */
export const withBlock = (readme: string, block: string): string => {
  const current = readmeBlock(readme);
  if (current === undefined) throw makeError(X`README.md has no ${q(START)} … ${q(END)} block`);
  return readme.replace(current, () => block);
};
harden(withBlock);
