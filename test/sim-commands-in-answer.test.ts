/**
 * Commands typed while the agent writes its answer, on a terminal (issue 45, trial 15: after the
 * answer, `/memory`'s output ran straight on from `/status`'s, its echo shown above both). Each
 * command's output follows its own echo (`› /status`, what it shows, then `› /memory`, what it
 * shows), so the person sees where one ends (docs/behaviour.md 10.2).
 */
import { describe, expect, it } from 'vitest';
import { TEST_MS } from './support/patience.js';
import { runSimOnTty } from './support/run-sim-tty.js';
import { screenLines } from './support/terminal-screen.js';
import { useTempFolders } from './support/temp-folders.js';

const makeTempFolder = useTempFolders();

const COLUMNS = 100;

describe('two commands typed in one go while the answer streams', () => {
  it(
    'each shows its output right after its own echo',
    async () => {
      const output = await runSimOnTty(
        ['--demo'],
        { XDG_STATE_HOME: makeTempFolder('state') },
        [
          { after: /Lal agent ready/, keys: 'tell me a long story\r' },
          { after: /is writing/, keys: '/status\r/memory\r' },
          { after: /What lal keeps:[^]*turn over|turn over[^]*What lal keeps:/, keys: '/quit\r' },
        ],
        makeTempFolder('cwd'),
        { columns: COLUMNS, rows: 60 },
      );
      const lines = await screenLines(output, COLUMNS);
      const screen = lines.join('\n');
      const at = (pattern: RegExp) => {
        const found = lines.filter(each => pattern.test(each));
        expect(found, `${pattern} once in\n${screen}`).toHaveLength(1);
        return lines.findIndex(each => pattern.test(each));
      };
      const order = [
        at(/^› \/status$/),
        // /status's output: help()'s sections, the model first.
        at(/^Model/),
        at(/^› \/memory$/),
        at(/^What lal keeps:$/),
      ];
      expect(order, screen).toEqual([...order].sort((a, b) => a - b));
    },
    TEST_MS,
  );
});
