/**
 * The command line of `npm run conformance`: what to compare, or why the
 * line cannot be run (an unknown option, --record without --endo), with the
 * usage to show either way.
 */
import { parseArgs } from 'node:util';

export const CONFORMANCE_USAGE = [
  'usage: npm run conformance [-- --endo <built endo checkout> [--record <commit>]] [--show]',
  '  (no option)      the daemon double of both generations against the recorded answers',
  '                   of the real daemons (conformance/recorded/)',
  '  --endo <path>    start a real daemon from that built checkout and compare it with the double',
  '  --record <sha>   with --endo: keep its answers as the recording of its generation',
  '  --show           print every step of the run',
  '  --help           this text',
].join('\n');
harden(CONFORMANCE_USAGE);

export type ConformanceArgs =
  | { kind: 'help' }
  | { kind: 'wrong'; reason: string }
  | { kind: 'run'; endo?: string; record?: string; show: boolean };

export const parseConformanceArgs = (argv: readonly string[]): ConformanceArgs => {
  let values;
  try {
    ({ values } = parseArgs({
      args: [...argv],
      options: {
        endo: { type: 'string' },
        record: { type: 'string' },
        show: { type: 'boolean', default: false },
        help: { type: 'boolean', default: false },
      },
    }));
  } catch (error) {
    // parseArgs names the option it does not know (or the value missing) in its message.
    return { kind: 'wrong', reason: (error as Error).message };
  }
  if (values.help) return { kind: 'help' };
  if (values.record !== undefined && values.endo === undefined)
    return {
      kind: 'wrong',
      reason: '--record keeps the answers of a real daemon: it needs --endo',
    };
  return {
    kind: 'run',
    ...(values.endo === undefined ? {} : { endo: values.endo }),
    ...(values.record === undefined ? {} : { record: values.record }),
    show: values.show,
  };
};
harden(parseConformanceArgs);
