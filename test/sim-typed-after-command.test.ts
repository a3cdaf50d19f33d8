/**
 * `npm start -- --demo --newest` on a terminal, lines typed right after a command at an idle
 * prompt, before it has shown anything (issue 45, a newcomer trial: `/channel new room` typed
 * after `/grant` was shown bare, with neither `you ›` nor `›`, above `granted #3…`). Typed in one
 * go, as a fast typist's or a terminal's type-ahead comes, each waits for the command before it
 * and says so (`waits › …`, sim/chat/after-command.ts), then is shown as sent as it runs: no row
 * of the screen is a line of the person's without its prefix (docs/behaviour.md 10.2).
 */
import { describe, expect, it } from 'vitest';
import { TEST_MS } from './support/patience.js';
import { runSimOnTty } from './support/run-sim-tty.js';
import { screenLines } from './support/terminal-screen.js';
import { useTempFolders } from './support/temp-folders.js';

const makeTempFolder = useTempFolders();

const COLUMNS = 100;

/** A colour code the screen may write between an entry's head and its body (sim/chat/screen.ts). */
const SGR = '(?:\\x1b\\[[0-9;]*m)*';

describe('lines typed while a command still works, on a terminal', () => {
  it(
    'each says it waits, then is shown as sent; none is left bare',
    async () => {
      const output = await runSimOnTty(
        ['--demo', '--newest'],
        { XDG_STATE_HOME: makeTempFolder('state') },
        [
          { after: /Lal agent ready/, keys: 'what is 6 * 7? Use code.\r' },
          // The request's turn over: the prompt is idle, /grant runs at once.
          { after: /asks to run code[^]*turn over/, keys: '/grant\r/channel new room\rping\r' },
          { after: /Channel room made/, keys: '' },
          // The answer to `ping`, mailed once the channel is made, and its turn's end.
          { after: new RegExp(`lal ›${SGR} pong[^]*turn over`), keys: '/quit\r' },
        ],
        makeTempFolder('cwd'),
        { columns: COLUMNS, rows: 40 },
      );
      const lines = await screenLines(output, COLUMNS);
      const screen = lines.join('\n');
      // A line of the person's is never on a row of its own without its prefix.
      for (const line of ['/grant', '/channel new room', 'ping'])
        expect(lines, screen).not.toContain(line);
      const at = (pattern: RegExp) => {
        const found = lines.filter(each => pattern.test(each));
        expect(found, `${pattern} once in\n${screen}`).toHaveLength(1);
        return lines.findIndex(each => pattern.test(each));
      };
      const order = [
        at(/^› \/grant$/),
        at(/^waits › \/channel new room \(runs once \/grant is done\)$/),
        at(/^granted #\d+: lal runs the code now$/),
        at(/^› \/channel new room$/),
        at(/^Channel room made/),
        at(/^you › ping$/),
        at(/^#\d+ lal › pong$/),
      ];
      expect(at(/^waits › ping \(runs once \/channel new room is done\)$/), screen).toBeLessThan(
        at(/^granted #/),
      );
      expect(order, screen).toEqual([...order].sort((a, b) => a - b));
    },
    TEST_MS,
  );
});
