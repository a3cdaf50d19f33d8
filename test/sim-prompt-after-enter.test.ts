/**
 * After Enter at an idle prompt, the prompt is drawn again on the next row at once, as a shell
 * draws it (docs/behaviour.md 10.2): a command that prints nothing for a while (`/grant` on
 * `--newest`, whose answer comes once the agent has taken the code up) left that row empty, and
 * keys typed meanwhile showed bare, with no `› ` before them (issue 45, trial 14).
 */
import { describe, expect, it } from 'vitest';
import { TEST_MS } from './support/patience.js';
import { runProgramOnTty, SIMULATOR } from './support/run-sim-tty.js';
import { screenLines } from './support/terminal-screen.js';
import { useTempFolders } from './support/temp-folders.js';

const makeTempFolder = useTempFolders();

const COLUMNS = 100;

describe('the prompt after Enter at an idle prompt, on a terminal', () => {
  it(
    'is drawn again at once: keys typed before the command prints sit after › ',
    async () => {
      const { output, matchedAt } = await runProgramOnTty(
        SIMULATOR,
        ['--demo', '--newest'],
        { XDG_STATE_HOME: makeTempFolder('state') },
        [
          { after: /Lal agent ready/, keys: 'what is 6 * 7? Use code.\r' },
          // The request's turn over: the prompt is idle; keys typed right after the Enter.
          { after: /asks to run code[^]*turn over/, keys: '/grant\rabc' },
          // The screen is read here, once the keys are echoed.
          { after: /abc/, keys: '' },
          // Ctrl-U drops what was typed; then leave.
          { after: /granted #\d+[^]*turn over/, keys: '\x15/quit\r' },
        ],
        makeTempFolder('cwd'),
        { columns: COLUMNS, rows: 40 },
      );
      const echoed = output.slice(0, matchedAt[2]);
      // Read before the grant's answer is printed: the command has shown nothing yet.
      expect(echoed).not.toMatch(/granted #/);
      const lines = (await screenLines(echoed, COLUMNS)).filter(line => line.trim() !== '');
      const screen = lines.join('\n');
      expect(lines.at(-2), screen).toBe('› /grant');
      expect(lines.at(-1), screen).toBe('› abc');
    },
    TEST_MS,
  );
});
