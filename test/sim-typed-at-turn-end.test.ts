/**
 * `npm start -- --demo` on a terminal, a command typed at each moment of a turn's end (issue 45,
 * a newcomer trial: `/inbox` typed just after `fae › pong`, the turn still finishing, was neither
 * shown nor run): before the answer, as its tool call is shown, right after the answer, while the
 * turn is finishing, right after its summary. Each time the command is shown once (`you ›` while
 * the turn runs or ends, as the prompt echoes it once it is over: docs/behaviour.md 10.2,
 * sim/chat/typed-lines.ts) and runs, its output after it and never between the turn's answer and
 * its summary (./presenter.ts `pastTurnOver`). The runner types the moment the output holds the
 * step's text, so a line lost leaves the run waiting for its output until the child's bound, and
 * fails here. Checked also with three busy loops beside it (load about 8): never lost.
 */
import { describe, expect, it } from 'vitest';
import { TEST_MS } from './support/patience.js';
import { runSimOnTty } from './support/run-sim-tty.js';
import { screenLines } from './support/terminal-screen.js';
import { useTempFolders } from './support/temp-folders.js';

const makeTempFolder = useTempFolders();

const COLUMNS = 80;

/** A colour code the screen may write between an entry's head and its body (sim/chat/screen.ts). */
const SGR = '(?:\\x1b\\[[0-9;]*m)*';

/** The moments of the turn on `ping` at which `/inbox` is typed: the output that comes then. */
const MOMENTS: [name: string, after: RegExp][] = [
  ['before the answer (thinking)', /is thinking/],
  ['as the reply tool is shown', /→ reply/],
  ['right after the answer', new RegExp(`lal ›${SGR} ${SGR}pong`)],
  ['while the turn is finishing', /is finishing/],
  ['right after the summary', /turn over: [^\n]*\n/],
];

describe('a command typed as a turn ends, on a terminal', () => {
  for (const [moment, after] of MOMENTS)
    it(
      `${moment}: shown once and run, never between the answer and its summary`,
      async () => {
        // What is still to come once /inbox is typed: its first row, and the summary unless seen.
        const rest = after.source.startsWith('turn over')
          ? /#0 lal:/
          : /#0 lal:[^]*turn over|turn over[^]*#0 lal:/;
        const output = await runSimOnTty(
          ['--demo'],
          { XDG_STATE_HOME: makeTempFolder('state') },
          [
            { after: /Lal agent ready/, keys: 'ping\r' },
            { after, keys: '/inbox\r' },
            // /inbox's first row (the greeting) and the turn's summary, in either order: a
            // command typed in the turn runs at once. /quit runs after /inbox is done.
            { after: rest, keys: '/quit\r' },
          ],
          makeTempFolder('cwd'),
          { columns: COLUMNS, rows: 30 },
        );
        const lines = await screenLines(output, COLUMNS);
        const screen = lines.join('\n');
        const at = (pattern: RegExp) => {
          const found = lines.filter(line => pattern.test(line));
          expect(found, `${pattern} once in\n${screen}`).toHaveLength(1);
          return lines.findIndex(line => pattern.test(line));
        };
        const echo = at(/^(?:you )?› \/inbox$/);
        expect(at(/^#0 lal: Lal agent ready/), screen).toBeGreaterThan(echo);
        // The answer, then its summary at once: nothing of the command's between them.
        expect(at(/^ {2}· turn over: /), screen).toBe(at(/^#\d+ lal › pong$/) + 1);
      },
      TEST_MS,
    );
});
