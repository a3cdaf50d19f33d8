/**
 * Lines that arrive in one read (a fast typist, a busy machine, a slow SSH link) are each what
 * they would be typed apart (docs/behaviour.md 10.2, sim/chat/chat.ts): `y` and a message in one
 * write, the moment `allow it?` shows, are an answer to the approval, then a message that waits
 * for the turn that asked. Trial 14 of issue 45 saw such a message echoed bare, or taken for an
 * answer come late ("Nothing is waiting for your answer").
 */
import { describe, expect, it } from 'vitest';
import { runSimOnTty } from './support/run-sim-tty.js';
import { useTempFolders } from './support/temp-folders.js';
import { screenLines } from './support/terminal-screen.js';

const makeTempFolder = useTempFolders();

const COLUMNS = 80;

describe('lines that arrive in one read, on a terminal', () => {
  it('an answer to an approval, then a message: the message is a message, shown waiting, then sent', async () => {
    const root = makeTempFolder('root');
    const output = await runSimOnTty(
      ['--demo', '--persona', 'fae'],
      { XDG_STATE_HOME: makeTempFolder('state'), TMPDIR: makeTempFolder('tmp') },
      [
        { after: /agent ready/, keys: `/attach runCommand ${root}\r` },
        { after: /I adopted/, keys: 'please run `echo one > one.txt`\r' },
        { after: /allow it\?/, keys: 'y\rtell me a long story\r' },
        { after: /That is all this double has to say[^]*turn over/, keys: '/quit\r' },
      ],
      makeTempFolder('cwd'),
      { columns: COLUMNS, rows: 30 },
    );
    const lines = await screenLines(output, COLUMNS);
    const at = (pattern: RegExp) => lines.findIndex(line => pattern.test(line));
    expect(lines.some(line => /Nothing is waiting for your answer/.test(line))).toBe(false);
    // Never echoed bare, without its prompt or what it waits for.
    expect(lines.filter(line => /^tell me a long story$/.test(line))).toEqual([]);
    // Typed as the turn it approved goes on, it waits for that turn, then is sent (./typed-lines.ts).
    const approved = at(/^approved #\d+$/);
    const waits = at(/^waits › tell me a long story \(goes to fae/);
    const sent = at(/^you › tell me a long story$/);
    const asking = at(/^#\d+ fae › I have asked my host/);
    expect(approved, lines.join('\n')).toBeGreaterThanOrEqual(0);
    expect(waits, lines.join('\n')).toBeGreaterThan(approved);
    expect(sent, lines.join('\n')).toBeGreaterThan(waits);
    // The turn that asked is over before the message typed after its question is sent.
    expect(asking, lines.join('\n')).toBeGreaterThanOrEqual(0);
    expect(asking, lines.join('\n')).toBeLessThan(sent);
    expect(lines.filter(line => /^you › tell me a long story$/.test(line))).toHaveLength(1);
  });
});
