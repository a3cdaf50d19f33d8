/**
 * What `npm start` settles before the chat begins: the flags, the settings
 * (the environment over `.env`), the model double of `--demo`, and the model
 * server's check. Each mistake is one line and an exit code; `--help` prints
 * the usage and ends.
 */
import { parseCliArgs, USAGE, type CliArgs } from './cli-args.js';
import { loadEnv } from './dotenv.js';
import { checkModelServer } from './preflight.js';
import { startDemoDouble } from './demo-double.js';

export const startUp = async (cwd: string, argv: readonly string[]) => {
  const loaded = loadEnv(cwd, process.env);
  const parsed = parseCliArgs(argv, loaded.env);
  if (!parsed.ok) {
    process.stderr.write(`${parsed.error}\n`);
    process.exit(2);
  }
  const args: CliArgs = parsed.args;
  if (args.help) {
    process.stdout.write(`${USAGE}\n`);
    process.exit(0);
  }
  for (const problem of loaded.problems) process.stderr.write(`warning: ${problem}\n`);
  const double = args.demo ? await startDemoDouble(loaded.env) : undefined;
  const settings = double?.env ?? loaded.env;
  const preflight = await checkModelServer(settings);
  if (!preflight.ok) {
    process.stderr.write(`${preflight.line}\n`);
    process.exit(1);
  }
  return { args, settings, loaded, preflight, double };
};
harden(startUp);
