/**
 * What `npm start` settles before the chat begins: the flags, the settings
 * (the environment over `.env`), the model double of `--demo`, and the model
 * server's check, and the state folder, locked for this run (./state-lock.ts).
 * Each mistake is one line and an exit code; `--help` prints
 * the usage and ends. On a terminal, each is wrapped at words (./print-lines.ts).
 */
import { parseCliArgs, type CliArgs } from './cli-args.js';
import { USAGE } from './usage.js';
import { loadEnv } from './dotenv.js';
import { withWhereSet } from './where-set.js';
import {
  farewellLine,
  ignoredStateHome,
  makeStateFolder,
  shownPath,
  stateFolderFor,
  stateNameFor,
  unmadeStateLine,
} from './state-folder.js';
import { readLogLevel } from '../../src/settings/settings.js';
import { lockStateFolder, lockedLine } from './state-lock.js';
import { printLines, printUsage } from './print-lines.js';

/**
 * What is said once at start about settings that would surprise: a relative XDG_STATE_HOME
 * ignored (./state-folder.ts), and --verbose with the log off (nothing of it would show, unsaid).
 */
const startNotes = (args: CliArgs, env: Readonly<Record<string, string>>): string[] => [
  ...[ignoredStateHome(process.env)].filter(line => line !== undefined),
  ...(args.verbose && readLogLevel(env) === 'off'
    ? [
        "--verbose shows the agent's log, but LAL_LOG=off keeps it empty, so nothing of it will show; set LAL_LOG=turns (or steps) to see it.",
      ]
    : []),
];

export const startUp = async (
  cwd: string,
  argv: readonly string[],
  /** Told the line that says the person left, once this run holds the state folder (./leave-before-chat.ts). */
  locked: (farewell: string) => void = () => {},
) => {
  const loaded = loadEnv(cwd, process.env);
  const parsed = parseCliArgs(argv, loaded.env);
  if (!parsed.ok) {
    printLines(process.stderr, withWhereSet(parsed.error, loaded));
    // A flag's mistake is a usage error (2); a setting's stops as every bad setting does (1).
    process.exit(parsed.setting === true ? 1 : 2);
  }
  const args: CliArgs = parsed.args;
  if (args.help) {
    printUsage(process.stdout, USAGE);
    process.exit(0);
  }
  if (loaded.unreadable !== undefined) {
    // The settings it holds would be missed, and what fails next would point elsewhere.
    printLines(process.stderr, `${loaded.unreadable}; fix it or move it away, then start again.`);
    process.exit(1);
  }
  for (const problem of [...loaded.problems, ...startNotes(args, loaded.env)])
    printLines(process.stderr, `warning: ${problem}`);
  // Before anything is started or --fresh forgets a thing: the folder may be another run's.
  const wanted = stateFolderFor(process.env, stateNameFor(args.persona, args));
  const made = makeStateFolder(wanted);
  if (!made.ok) {
    printLines(process.stderr, unmadeStateLine(process.env, made.why));
    process.exit(1);
  }
  const stateFolder = made.folder;
  const lock = lockStateFolder(stateFolder);
  if (!lock.ok) {
    printLines(process.stderr, lockedLine(shownPath(stateFolder, process.env), lock.holder));
    process.exit(1);
  }
  locked(farewellLine(args.persona, stateFolder, process.env));
  // Only now what is heavier to load: a refused run has stopped before it (README: "refuses at once").
  const [{ checkModelServer }, { startDemoDouble }, { malformedSettings }] = await Promise.all([
    import('./preflight.js'),
    import('./demo-double.js'),
    import('./setting-problems.js'),
  ]);
  // Every value a setting does not take stops the start, the agent's as the model's (one rule).
  const malformed = malformedSettings(loaded.env);
  if (malformed.length > 0) {
    printLines(process.stderr, malformed.map(line => withWhereSet(line, loaded)).join('\n'));
    process.exit(1);
  }
  const double = args.demo ? await startDemoDouble(loaded.env) : undefined;
  const settings = double?.env ?? loaded.env;
  const preflight = await checkModelServer(settings);
  if (!preflight.ok) {
    printLines(process.stderr, withWhereSet(preflight.line, loaded));
    process.exit(1);
  }
  const envNote =
    loaded.file === undefined
      ? undefined
      : `Settings read from ${loaded.file} (a variable set in the shell wins over it).`;
  return { args, settings, envNote, preflight, double, stateFolder, releaseState: lock.release };
};
harden(startUp);
