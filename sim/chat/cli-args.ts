/**
 * The simulator's command line: the flags given after `npm start --`.
 * Unknown flags are refused with a message rather than ignored.
 */
import type { Persona } from '../../src/config/config.js';
import { npmTookFlags } from '../npm-flags.js';
import { noValueError, unknownFlagError } from '../unknown-flag.js';

export interface CliArgs {
  persona: Persona;
  help: boolean;
  /** Show the agent's own log lines on screen too. */
  verbose: boolean;
  /** Start with nothing kept from earlier runs. */
  fresh: boolean;
  /** Play the newest daemon (channels, live progress) instead of f0a46042a. */
  newest: boolean;
  /** Think with the scripted model double, started in this process. */
  demo: boolean;
  /** Run side-effecting tools without asking first (as the daemon does for its HOST). */
  yes: boolean;
}

/** `setting`: the mistake is a setting's value, not a flag (it exits as the other settings' do). */
export type CliParse = { ok: true; args: CliArgs } | { ok: false; error: string; setting?: true };

const personas: readonly Persona[] = ['lal', 'fae'];

/** The flags: for the one nearest a mistyped flag, and those npm took for itself. */
const FLAGS = ['--persona', '--demo', '--newest', '--fresh', '--yes', '--verbose', '--help'];

/** The flags that take a value; the others take none (`--fresh=no` is refused, issue 45). */
const VALUE_FLAGS = ['--persona'];

const NPM_START = {
  script: 'start',
  command: 'npm start',
  whose: "the simulator's",
  flags: FLAGS.map(name => ({ name, takesValue: VALUE_FLAGS.includes(name) })),
};

const asPersona = (value: string | undefined): Persona | undefined =>
  personas.find(persona => persona === value?.trim().toLowerCase());

/** Parses the flags; the persona defaults to LAL_PERSONA (environment or .env), as docs/configuration.md says. */
export const parseCliArgs = (
  argv: readonly string[],
  env: Readonly<Record<string, string | undefined>> = {},
): CliParse => {
  // First: what follows from a flag npm kept (no model server, an unknown "fae") would mislead.
  const npmTook = npmTookFlags(NPM_START, argv, env);
  if (npmTook !== undefined) return { ok: false, error: npmTook };
  const fromEnv =
    env.LAL_PERSONA === undefined || env.LAL_PERSONA.trim() === ''
      ? 'lal'
      : asPersona(env.LAL_PERSONA);
  if (fromEnv === undefined)
    return {
      ok: false,
      error: `LAL_PERSONA must be lal or fae; got ${JSON.stringify(env.LAL_PERSONA)}; see docs/configuration.md.`,
      setting: true,
    };
  const args: CliArgs = {
    persona: fromEnv,
    help: false,
    verbose: false,
    fresh: false,
    newest: false,
    demo: false,
    yes: false,
  };
  for (let index = 0; index < argv.length; index += 1) {
    const arg = argv[index]!;
    const [flag, inline] =
      arg.startsWith('--') && arg.includes('=')
        ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)]
        : [arg, undefined];
    // `--fresh=no` is refused rather than taken as --fresh.
    if (inline !== undefined && FLAGS.includes(flag) && !VALUE_FLAGS.includes(flag))
      return { ok: false, error: noValueError(arg) };
    switch (flag) {
      case '--help':
      case '-h':
        args.help = true;
        break;
      case '--verbose':
      case '-v':
        args.verbose = true;
        break;
      case '--fresh':
        args.fresh = true;
        break;
      case '--newest':
        args.newest = true;
        break;
      case '--demo':
        args.demo = true;
        break;
      case '--yes':
      case '-y':
        args.yes = true;
        break;
      case '--persona': {
        const value = inline ?? argv[(index += 1)];
        const persona = asPersona(value);
        if (persona === undefined) {
          return {
            ok: false,
            error: `--persona must be lal or fae; got ${value === undefined ? 'nothing' : JSON.stringify(value)}`,
          };
        }
        args.persona = persona;
        break;
      }
      default:
        return { ok: false, error: unknownFlagError(arg, FLAGS) };
    }
  }
  return { ok: true, args };
};
harden(parseCliArgs);
