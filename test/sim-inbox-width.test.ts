/**
 * `/inbox` on a terminal (docs/behaviour.md 10.2): each message on one row, cut with "…" to the
 * terminal's width, not to a fixed 100 characters that an 80-column terminal shows on two rows.
 */
import { describe, expect, it } from 'vitest';
import { runSimOnTty } from './support/run-sim-tty.js';
import { useTempFolders } from './support/temp-folders.js';
import { screenRows } from './support/terminal-screen.js';

const makeTempFolder = useTempFolders();

describe('/inbox on a terminal', () => {
  for (const columns of [80, 60])
    it(`${columns} columns wide: the greeting on one row, cut with "…"`, async () => {
      const output = await runSimOnTty(
        ['--demo', '--fresh'],
        { XDG_STATE_HOME: makeTempFolder('state'), TMPDIR: makeTempFolder('tmp') },
        [
          { after: /agent ready/, keys: '/inbox\r' },
          // The greeting again: the /inbox row.
          { after: /Lal agent ready/, keys: '/quit\r' },
        ],
        makeTempFolder('cwd'),
        { columns, rows: 30 },
      );
      const rows = await screenRows(output, columns);
      const at = rows.findIndex(row => row.text.startsWith('#0 lal: '));
      expect(at).toBeGreaterThan(-1);
      const row = rows[at]!;
      expect(row.text).toMatch(/^#0 lal: Lal agent ready\. .*…$/);
      expect(row.text.length).toBeLessThan(columns);
      // Nothing of it goes on to the next row.
      expect(rows[at + 1]?.wrapped ?? false).toBe(false);
      expect(rows[at + 1]?.text ?? '').not.toMatch(/^ {2}\S/);
    });
});
