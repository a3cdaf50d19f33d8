/**
 * A word wider than the terminal, as `npm start` shows it at 80 and 60 columns, drawn by a terminal
 * emulator (issue 45; sim/chat/wrap-words.ts, docs/behaviour.md 10.2): the log's path in the first
 * lines, /help's example to type, and JSON without spaces each go on over rows broken after one of
 * their parts where they can be (`/`, `,`), every row they go on from ending with `↩`, so read back
 * whole; the terminal itself wraps none of them. Before, each was cut where the row ended
 * (`…/fae-d` / `emo/logs/…`, `…/di` / `st/index.js`).
 */
import { describe, expect, it } from 'vitest';
import { runSimOnTty } from './support/run-sim-tty.js';
import { useTempFolders } from './support/temp-folders.js';
import { screenRows, type ScreenRow } from './support/terminal-screen.js';

const makeTempFolder = useTempFolders();

const EXAMPLE = 'node_modules/@modelcontextprotocol/server-everything/dist/index.js';
const JSON_TOKEN =
  '{"name":"lal","tools":["readFile","writeFile","runCommand"],"limits":{"turns":12,"tokens":400000}}';

/** The rows read as a person reads them: a row ending with ↩ goes on in the next, past its indent. */
const readBack = (rows: readonly ScreenRow[]): string =>
  rows
    .map(row => row.text)
    .join('\n')
    .replace(/↩\n */g, '');

describe('a word wider than the terminal', () => {
  for (const columns of [80, 60])
    it(`${columns} columns wide: broken after one of its parts, each row it goes on from marked, read back whole`, async () => {
      const state = makeTempFolder('state');
      const output = await runSimOnTty(
        ['--demo', '--persona', 'fae', '--fresh'],
        { XDG_STATE_HOME: state, TMPDIR: makeTempFolder('tmp') },
        [
          { after: /agent ready/, keys: '/help\r' },
          { after: /\/\/text/, keys: `/attach ${JSON_TOKEN}\r` },
          { after: /No tool named/, keys: '/quit\r' },
        ],
        makeTempFolder('cwd'),
        { columns, rows: 30 },
      );
      const rows = await screenRows(output, columns);
      // No row wrapped by the terminal (wider than the screen) but its echo of a line typed
      // (the prompt's own, `› …`).
      const startOf = (index: number): string => {
        let at = index;
        while (at > 0 && rows[at]!.wrapped) at -= 1;
        return rows[at]!.text;
      };
      const wrappedByTerminal = rows.flatMap((row, index) =>
        row.wrapped && !startOf(index).startsWith('› ') ? [row.text] : [],
      );
      expect(wrappedByTerminal).toEqual([]);
      const text = readBack(rows);
      // The log's path, whole once read back, the state folder's own.
      expect(text).toMatch(
        new RegExp(`its log is\\s+${state}/lal-fae/fae-demo/logs/agent-[\\dTZ-]+\\.log\\.`),
      );
      expect(text).toContain(`/attach mcp everything node\n    ${EXAMPLE}`);
      // The note naming no such tool gives the JSON back whole (escaped, as JSON.stringify quotes it).
      expect(text).toContain(JSON.stringify(JSON_TOKEN));
      // Broken only after a part: no row the word goes on from ends mid-name.
      for (const { text: row } of rows.filter(each => each.text.endsWith('↩')))
        expect(row, row).toMatch(/[/,;\-_.:=&?|)\]}]↩$/);
    });
});
