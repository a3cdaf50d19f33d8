/**
 * `npm start`'s one rule for a value a setting does not take (issue 45): it
 * stops at start, one line per such setting, naming the variable, the value
 * and what it takes, as it does for the model's settings (providers/config.ts:
 * `… must be …; got "…"; see docs/configuration.md.`). The agent's settings
 * are read by the agent's own reader (src/config/config.ts), the one the daemon
 * runs: there the agent cannot stop its start, so it tells the HOST and keeps
 * the default ("…, got "abc"; using 24."). Those problems are the ones worded
 * `X must be …, got "…"`; the others (a list of tools left empty on purpose)
 * are no mistake in a value, and stay the agent's to say.
 */
import { readAgentConfig } from '../../src/config/config.js';

// The value is whole up to the quote before `;` or the end: it may hold quotes itself (`"5`, docs/troubleshooting.md).
const MALFORMED =
  /^((?:LAL|FAE)_\w+) must be (.+?), got (".*?")(?=;|\.?$)(?:; (did you mean [^?]+\?))?/;

/** The lines that stop `npm start`: one per setting whose value the agent would not take. */
export const malformedSettings = (env: Readonly<Record<string, string>>): string[] =>
  readAgentConfig(env).problems.flatMap(problem => {
    const match = MALFORMED.exec(problem);
    if (match === null) return [];
    const [, name, accepts, value, hint] = match;
    return [
      `${name} must be ${accepts}; got ${value}${hint === undefined ? '' : `; ${hint}`}; see docs/configuration.md.`,
    ];
  });
harden(malformedSettings);
