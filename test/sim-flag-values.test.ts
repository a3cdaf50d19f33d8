/**
 * A flag that takes no value, given one (issue 45, the fifteenth newcomer trial): `--fresh=0`,
 * `--fresh=no` and `--fresh=false` wiped the state folder as `--fresh` does, and `--demo=no` or
 * `--verbose=3` were taken as the flag itself. The value is refused in the one line other bad
 * arguments get (docs/behaviour.md 10.1), before anything starts: nothing is wiped on a guess.
 */
import { describe, expect, it } from 'vitest';
import { parseCliArgs } from '../sim/chat/cli-args.js';
import { parseDoubleArgs } from '../sim/model-server/double-args.js';

describe("npm start's flags that take no value", () => {
  it.each(['--fresh=0', '--fresh=false', '--fresh=no', '--demo=no', '--verbose=3', '--yes=1'])(
    'refuses %s, naming the flag',
    arg => {
      const flag = arg.slice(0, arg.indexOf('='));
      expect(parseCliArgs(['--demo', arg])).toEqual({
        ok: false,
        error: `${flag} takes no value; got ${JSON.stringify(arg)}: give ${flag} alone, or leave it out`,
      });
    },
  );
  it('refuses a value of a short flag’s long name too, and takes the flags alone as before', () => {
    expect(parseCliArgs(['--help=yes'])).toMatchObject({ ok: false });
    expect(parseCliArgs(['--newest=1'])).toMatchObject({ ok: false });
    expect(parseCliArgs(['--fresh', '--demo'])).toMatchObject({
      ok: true,
      args: { fresh: true, demo: true },
    });
    // A flag that takes a value keeps taking it after `=`.
    expect(parseCliArgs(['--persona=fae'])).toMatchObject({ ok: true, args: { persona: 'fae' } });
  });
});

describe("the model double's --help", () => {
  it('takes no value either', () => {
    expect(parseDoubleArgs(['--help=1'])).toEqual({
      ok: false,
      error: '--help takes no value; got "--help=1": give --help alone, or leave it out',
    });
    expect(parseDoubleArgs(['--port=9000'])).toMatchObject({ ok: true, args: { port: 9000 } });
  });
});
