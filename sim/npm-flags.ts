/**
 * Flags npm kept for itself. Given before `--` (`npm start --demo`), a flag
 * never reaches the program: npm reads it as a setting of its own, sets
 * `npm_config_demo=true` in the program's environment, and passes on a flag's
 * value alone (`npm start --persona fae` gives the program just "fae"). Those
 * variables, for the program's own flags and only under its own npm script,
 * say what was lost (issue 45), so the program can say it in one line instead
 * of the misleading error that follows from the flag's absence.
 */

interface ProgramFlag {
  /** As typed: `--demo`. */
  name: string;
  /** `--persona fae`: npm passes the value on by itself. */
  takesValue: boolean;
}

interface ProgramCommand {
  /** What npm sets npm_lifecycle_event to for it: `start`, `model-double`. */
  script: string;
  /** How a person runs it: `npm start`, `npm run model-double`. */
  command: string;
  /** Whose flags they are: "the simulator's". */
  whose: string;
  flags: readonly ProgramFlag[];
}

/** The one line saying which flags npm took, with the command that works; undefined when it took none. */
export const npmTookFlags = (
  program: ProgramCommand,
  argv: readonly string[],
  env: Readonly<Record<string, string | undefined>>,
): string | undefined => {
  // Another script's run (npm test's children) or no npm at all: its settings are not our flags.
  if (env.npm_lifecycle_event !== program.script) return undefined;
  const stray = [...argv];
  const passedAlone: string[] = [];
  const taken: string[] = [];
  const meant: string[] = [];
  for (const flag of program.flags) {
    // An empty value is npm's own default (npm_config_yes=""), not a flag given.
    const value = env[`npm_config_${flag.name.slice(2)}`];
    if (value === undefined || value === '') continue;
    if (value !== 'true') {
      // --persona=fae: npm kept the value too.
      taken.push(`${flag.name}=${value}`);
      meant.push(`${flag.name}=${value}`);
    } else if (flag.takesValue && stray.length > 0 && !stray[0]!.startsWith('-')) {
      const given = stray.shift()!;
      passedAlone.push(JSON.stringify(given));
      taken.push(flag.name);
      meant.push(flag.name, given);
    } else {
      taken.push(flag.name);
      meant.push(flag.name);
    }
  }
  if (taken.length === 0) return undefined;
  const names =
    taken.length === 1 ? taken[0] : `${taken.slice(0, -1).join(', ')} and ${taken.at(-1)}`;
  const alone = passedAlone.length === 0 ? '' : ` and passed on ${passedAlone.join(', ')} alone`;
  return `npm took ${names} for itself${alone}: put -- before ${program.whose} flags: ${program.command} -- ${[...meant, ...stray].join(' ')}`;
};
harden(npmTookFlags);
