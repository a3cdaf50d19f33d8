/**
 * A word wider than the terminal, as `npm start` shows it at 80 and 60 columns, drawn by a terminal
 * emulator (issue 45; sim/chat/wrap-words.ts, docs/behaviour.md 10.2): the log's path in the first
 * lines and JSON without spaces are each written whole on a row of their own, and /help's example
 * to type whole on its line, which the terminal wraps, so copied they come whole (a terminal joins its own wrap on copy).
 * Before, each was broken by the simulator after one of its parts and marked `↩`
 * (`…/lal-fae/lal/logs/↩` / `agent-….log`), which copied as a path that does not exist; earlier
 * still, cut where the row ended.
 */
import { describe, expect, it } from 'vitest';
import { runSimOnTty } from './support/run-sim-tty.js';
import { useTempFolders } from './support/temp-folders.js';
import { screenRows, type ScreenRow } from './support/terminal-screen.js';

const makeTempFolder = useTempFolders();

const EXAMPLE = 'node_modules/@modelcontextprotocol/server-everything/dist/index.js';
const JSON_TOKEN =
  '{"name":"lal","tools":["readFile","writeFile","runCommand"],"limits":{"turns":12,"tokens":400000}}';

/** The screen's lines as copied: the rows the terminal wrapped joined to the row before them. */
const copiedLines = (rows: readonly ScreenRow[]): string[] => {
  const lines: string[] = [];
  for (const row of rows) {
    if (row.wrapped && lines.length > 0) lines[lines.length - 1] += row.text;
    else lines.push(row.text);
  }
  return lines;
};

describe('a word wider than the terminal', () => {
  for (const columns of [80, 60])
    it(`${columns} columns wide: whole on a row of its own, wrapped by the terminal, copied whole`, async () => {
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
      const lines = copiedLines(rows);
      // Nothing broken by the simulator.
      expect(lines.join('\n')).not.toContain('↩');
      // The log's path, whole on a line of its own, the state folder's own.
      const log = new RegExp(`^\\s*${state}/lal-fae/fae-demo/logs/agent-[\\dTZ-]+\\.log\\.?$`);
      expect(lines.some(line => log.test(line))).toBe(true);
      // /help's example, a command to type, one line whole at either width (trial 14: pasted in
      // two it sent a message).
      expect(lines).toContain(`    /attach mcp everything node ${EXAMPLE}`);
      // The note naming no such tool gives the JSON back whole (escaped, as JSON.stringify quotes it).
      expect(lines.some(line => line.includes(JSON.stringify(JSON_TOKEN)))).toBe(true);
      // A line the terminal wrapped is one such word alone (or the echo of a line typed, `› …`):
      // no word that fits a row is left to the terminal to cut.
      const wide = lines.filter(
        each => each.length >= columns && !each.startsWith('› ') && !each.includes(EXAMPLE),
      );
      for (const line of wide) expect(line.trim(), line).not.toMatch(/\s/);
    });
});
