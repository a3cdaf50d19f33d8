/**
 * `npm start` on a terminal 80 columns wide (or narrower), drawn by a terminal emulator as a
 * person would see it: README's first session keeps every line the agent wrote, whole, whatever
 * the status line or a half-typed line wrapped onto; the status line keeps to one row; once the
 * turn is over only the prompt is left.
 */
import { describe, expect, it } from 'vitest';
import { runSimOnTty, type TtyStep } from './support/run-sim-tty.js';
import { useTempFolders } from './support/temp-folders.js';
import { screenLines } from './support/terminal-screen.js';

const makeTempFolder = useTempFolders();

const run = async (columns: number, steps: readonly TtyStep[]) => {
  const output = await runSimOnTty(
    ['--demo', '--persona', 'fae', '--fresh'],
    { XDG_STATE_HOME: makeTempFolder('state'), TMPDIR: makeTempFolder('tmp') },
    steps,
    makeTempFolder('cwd'),
    { columns, rows: 30 },
  );
  return screenLines(output, columns);
};

/** A turn's summary: wrapped at words where the screen is narrower than it (sim/chat/wrap-words.ts). */
const turnOver = /turn over: [^]*?out\s+tokens/;

describe('a terminal 80 columns wide', () => {
  it("keeps the agent's reply and the turn's summary whole when the status line is wider than the screen", async () => {
    const lines = await run(80, [
      { after: /agent ready/, keys: 'ping\r' },
      { after: turnOver, keys: 'what is 6 * 7? Work it out with code.\r' },
      { after: turnOver, keys: '/quit\r' },
    ]);
    const text = lines.join('\n');
    expect(text).toMatch(/^#\d+ fae › pong$/m);
    expect(text).toMatch(
      /^#\d+ fae › I have asked my host to run it; I will tell you the result\.$/m,
    );
    expect(lines.filter(line => /· turn over: /.test(line))).toHaveLength(2);
    // Nothing of the status is left on the screen once the turn is over.
    expect(text).not.toMatch(/is (thinking|writing)/);
  });

  it('keeps a streamed answer whole while a half-typed line wraps under it, and the line typed survives', async () => {
    const typed = 'y'.repeat(90);
    const lines = await run(60, [
      { after: /agent ready/, keys: 'tell me a long story\r' },
      { after: /is writing/, keys: typed },
      // The half-typed line, sent once the answer is over, reaches the agent whole.
      { after: turnOver, keys: '\r' },
      { after: turnOver, keys: '/quit\r' },
    ]);
    const text = lines.join('\n');
    expect(lines).toContain(`› ${typed}`);
    // The answer is wrapped at words to the width (its rows two columns in): read as one text.
    const words = text.replace(/\s+/g, ' ');
    expect(words).toContain('Lal and Fae live inside the Endo daemon as guests');
    expect(words).toContain(
      'That is all this double has to say; a real model would say more, and better.',
    );
    expect(lines.filter(line => /· turn over: /.test(line))).toHaveLength(2);
    expect(text).not.toMatch(/is (thinking|writing)/);
  });
});
