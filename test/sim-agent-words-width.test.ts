/**
 * The agent's own words on a terminal (docs/behaviour.md 10.2): wrapped at words to its width as
 * the simulator's notes are, each later row two columns in, so the terminal breaks no word
 * across rows ("capabil / ities"); a fenced code block is left as written, and a marked span
 * (`*bold words*`) is never split, so its markup still shows as a style. A newcomer saw the
 * greeting and a long answer broken mid-word at 80 columns.
 */
import { describe, expect, it } from 'vitest';
import { wrapAgentWords } from '../sim/chat/wrap-words.js';
import { runSimOnTty } from './support/run-sim-tty.js';
import { useTempFolders } from './support/temp-folders.js';
import { screenRows } from './support/terminal-screen.js';

const makeTempFolder = useTempFolders();

describe("the agent's words on a terminal", () => {
  for (const columns of [80, 60])
    it(`${columns} columns wide: the greeting and a long answer break no word`, async () => {
      const output = await runSimOnTty(
        ['--demo', '--fresh'],
        { XDG_STATE_HOME: makeTempFolder('state'), TMPDIR: makeTempFolder('tmp') },
        [
          { after: /agent ready/, keys: 'tell me a long story\r' },
          { after: /turn over/, keys: '/quit\r' },
        ],
        makeTempFolder('cwd'),
        { columns, rows: 30 },
      );
      const rows = await screenRows(output, columns);
      const first = rows.findIndex(row => row.text.includes('Lal agent ready'));
      const last = rows.findIndex(row => row.text.includes('turn over'));
      expect(first).toBeGreaterThan(-1);
      expect(last).toBeGreaterThan(first);
      const shown = rows.slice(first, last);
      // The answer is on the screen, whole paragraphs of it.
      expect(
        shown
          .map(row => row.text)
          .join(' ')
          .replace(/\s+/g, ' '),
      ).toContain('streamed a word at a time as a real model writes it');
      for (const { text, wrapped } of shown) {
        expect(wrapped, text).toBe(false);
        expect(text.length, text).toBeLessThan(columns);
      }
    });
});

describe('wrapAgentWords', () => {
  it('wraps prose under a two-column indent, keeps code blocks and marked spans whole', () => {
    const body = [
      'one two three four five six seven eight *bold words here* nine',
      '```',
      'const aVeryLongLineOfCode = someFunction(withArguments, thatRunPastTheRow);',
      '```',
    ].join('\n');
    const wrapped = wrapAgentWords('lal ›', body, 30).split('\n');
    expect(wrapped).toEqual([
      'one two three four five',
      'six seven eight',
      '*bold words here* nine',
      '```',
      'const aVeryLongLineOfCode = someFunction(withArguments, thatRunPastTheRow);',
      '```',
    ]);
  });
});
