/** `npm run model-double`'s command line: the port and the protocols. */
import { DEMO_PROTOCOLS } from './demo-servers.js';
import { DEFAULT_PORT } from './usage.js';
import type { ModelProtocol } from './types.js';
import { npmTookFlags } from '../npm-flags.js';
import { noValueError, unknownFlagError } from '../unknown-flag.js';

interface DoubleArgs {
  port: number;
  protocols: readonly ModelProtocol[];
  help: boolean;
}

/** The flags: for those npm took for itself, and the one nearest a mistyped flag. */
const FLAGS = ['--port', '--protocol', '--help'];

const NPM_RUN = {
  script: 'model-double',
  command: 'npm run model-double',
  whose: "the model double's",
  flags: FLAGS.map(name => ({ name, takesValue: name !== '--help' })),
};

export const parseDoubleArgs = (
  argv: readonly string[],
  env: Readonly<Record<string, string | undefined>> = {},
): { ok: true; args: DoubleArgs } | { ok: false; error: string } => {
  // `npm run model-double --port 9000`: npm kept --port and passed on "9000" alone.
  const npmTook = npmTookFlags(NPM_RUN, argv, env);
  if (npmTook !== undefined) return { ok: false, error: npmTook };
  const args: DoubleArgs = { port: DEFAULT_PORT, protocols: DEMO_PROTOCOLS, help: false };
  for (let index = 0; index < argv.length; index += 1) {
    const arg = argv[index]!;
    const [flag, inline] = arg.includes('=')
      ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)]
      : [arg, undefined];
    if (flag === '--help' && inline !== undefined) return { ok: false, error: noValueError(arg) };
    if (flag === '--help' || flag === '-h') args.help = true;
    else if (flag === '--port') {
      const value = inline ?? argv[(index += 1)];
      const port = Number(value);
      if (!/^\d+$/.test(value ?? '') || port > 65_533)
        return {
          ok: false,
          error: `--port must be a port number (0–65533); got ${JSON.stringify(value ?? '')}`,
        };
      args.port = port;
    } else if (flag === '--protocol') {
      const value = inline ?? argv[(index += 1)];
      const protocol = DEMO_PROTOCOLS.find(each => each === value);
      if (protocol === undefined)
        return {
          ok: false,
          error: `--protocol must be one of ${DEMO_PROTOCOLS.join(', ')}; got ${JSON.stringify(value ?? '')}`,
        };
      args.protocols = [protocol];
    } else return { ok: false, error: unknownFlagError(arg, FLAGS) };
  }
  return { ok: true, args };
};
harden(parseDoubleArgs);
