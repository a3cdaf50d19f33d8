/**
 * Letters a terminal draws two columns wide (日本語, 🎉) in `npm start` at 80 and 60 columns, drawn by
 * a terminal emulator (issue 45; sim/chat/columns.ts, README: "on a terminal what the simulator writes
 * is wrapped at words to its width"): a reply, /inbox and the status row are measured in the columns
 * the terminal draws, so no row runs past the last column and no wide letter is pushed alone onto the
 * next row. Before, each was measured in UTF-16 code units: a row of CJK ran over the edge and the
 * terminal carried its end onto a row of its own (trial 12).
 */
import stringWidth from 'string-width';
import { describe, expect, it } from 'vitest';
import { columnsOf, fitColumns } from '../sim/chat/columns.js';
import { fitStatus, fitStatusForms } from '../sim/chat/screen.js';
import { wrapAgentWords, wrapEntry, wrapLines } from '../sim/chat/wrap-words.js';
import { runSimOnTty } from './support/run-sim-tty.js';
import { useTempFolders } from './support/temp-folders.js';
import { screenRows, type ScreenRow } from './support/terminal-screen.js';

const makeTempFolder = useTempFolders();

const PHRASE = 'héllo 日本語 🎉 emoji 漢字かな交じり文 ';
const MESSAGE = `ping ${PHRASE.repeat(6).trim()}`;

const words = (text: string): string[] => text.split(/\s+/).filter(word => word !== '');

/**
 * The screen's lines as the simulator drew them, each its rows: the rows the terminal wrapped go
 * with the row before them; the terminal's echo of a line typed (`› …`) is left out (readline's).
 */
const drawnLines = (rows: readonly ScreenRow[]): ScreenRow[][] => {
  const lines: ScreenRow[][] = [];
  for (const row of rows) {
    if (row.wrapped && lines.length > 0) lines[lines.length - 1]!.push(row);
    else lines.push([row]);
  }
  return lines.filter(line => !line[0]!.text.startsWith('› '));
};

describe('wide letters on a terminal', () => {
  for (const columns of [80, 60])
    it(`${columns} columns: the reply and /inbox keep to their rows, no wide letter split`, async () => {
      const output = await runSimOnTty(
        ['--demo', '--persona', 'fae', '--fresh'],
        { XDG_STATE_HOME: makeTempFolder('state'), TMPDIR: makeTempFolder('tmp') },
        [
          { after: /agent ready/, keys: `${MESSAGE}\r` },
          { after: /turn over/, keys: '/inbox\r' },
          { after: /#\d+ fae:/, keys: '/quit\r' },
        ],
        makeTempFolder('cwd'),
        { columns, rows: 30 },
      );
      const lines = drawnLines(await screenRows(output, columns));
      for (const line of lines) {
        const text = line.map(row => row.text).join('');
        // A line the terminal wrapped is one word no row holds (the log's path: sim-long-words):
        // every other fits its row, so no letter went on alone to the next row.
        if (line.length > 1) expect(text.trim(), text).not.toMatch(/\s/);
        else expect(stringWidth(text), text).toBeLessThan(columns);
      }
      const texts = lines.map(line => line.map(row => row.text).join(''));
      // The reply whole, every word in order, over rows of its own.
      const start = texts.findIndex(text => /#\d+ fae › pong:/.test(text));
      expect(start).toBeGreaterThanOrEqual(0);
      const reply = words(texts.slice(start).join('\n'));
      expect(reply.slice(4, 4 + words(MESSAGE).length)).toEqual(words(MESSAGE));
      // /inbox's line for it: one row, cut with "…" between two letters, not through one (no �).
      const inbox = texts.find(text => /^#\d+ fae: pong:/.test(text));
      expect(inbox).toMatch(/…$/);
      expect(texts.join('\n')).not.toContain('\uFFFD');
    });
});

describe('the screen measures in columns (sim/chat/columns.ts)', () => {
  it('counts a wide letter as two columns, an accent as none, colour as none', () => {
    expect(columnsOf('héllo 日本語 🎉 emoji')).toBe(21);
    expect(columnsOf('\x1b[1;36mfae ›\x1b[0m')).toBe(5);
    // Cut at whole letters: a wide one that would not fit is left out, not halved.
    expect(fitColumns('日本語', 5)).toBe('日本');
    expect(fitColumns('日本語', 5, 'end')).toBe('本語');
    expect(fitColumns('e\u0301e\u0301e\u0301', 2)).toBe('e\u0301e\u0301');
  });

  it('wraps CJK and emoji words to the columns they take', () => {
    const text = PHRASE.repeat(6).trim();
    for (const width of [79, 59, 30]) {
      for (const row of wrapLines(text, width).split('\n'))
        expect(columnsOf(row), row).toBeLessThanOrEqual(width);
      const entry = wrapEntry('#4 fae ›', text, width);
      const [first, ...rest] = entry.body!.split('\n');
      expect(columnsOf(`#4 fae › ${first}`)).toBeLessThanOrEqual(width);
      for (const row of rest) expect(columnsOf(`  ${row}`), row).toBeLessThanOrEqual(width);
      const agent = wrapAgentWords('#4 fae ›', text, width).split('\n');
      expect(columnsOf(`#4 fae › ${agent[0]}`)).toBeLessThanOrEqual(width);
      for (const row of agent.slice(1))
        expect(columnsOf(`  ${row}`), row).toBeLessThanOrEqual(width);
    }
  });

  it('fits the status row to its columns, its label and newest words kept', () => {
    const status = `fae is writing: pong: ${PHRASE.repeat(4)}`;
    for (const room of [75, 55, 20]) {
      const fitted = fitStatus(status, room);
      expect(columnsOf(fitted), fitted).toBeLessThanOrEqual(room);
      expect(fitted.startsWith('fae is writing: …')).toBe(true);
      expect(columnsOf(fitStatusForms(status, ['日本語 '.repeat(30)], room))).toBeLessThanOrEqual(
        room,
      );
    }
    // A form that fits in code units but not in columns is not taken.
    expect(fitStatusForms('日本語日本語', ['short'], 8)).toBe('short');
  });
});
