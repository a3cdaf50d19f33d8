/**
 * `npm run bench`'s command line: its settings are environment variables (./bench-settings.ts),
 * so it takes only --help; any other argument is refused in one line with the nearest flag, as
 * `npm start`'s and the model double's are (sim/unknown-flag.ts), before minutes of figures run.
 */
import { unknownFlagError } from '../sim/unknown-flag.js';

const FLAGS = ['--help'];

export const parseBenchArgs = (
  argv: readonly string[],
): { ok: true; help: boolean } | { ok: false; error: string } => {
  let help = false;
  for (const arg of argv) {
    if (arg === '--help' || arg === '-h') help = true;
    else return { ok: false, error: unknownFlagError(arg, FLAGS) };
  }
  return { ok: true, help };
};
harden(parseBenchArgs);
