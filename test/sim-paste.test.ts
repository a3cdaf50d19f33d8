/**
 * A paste of several lines on a terminal is one message (docs/behaviour.md 10.2): the simulator
 * turns on the terminal's bracketed paste, and the lines pasted wait for the person's Enter, which
 * sends them with the line it ends as one message: one turn, one model call. Before, each pasted
 * line was a message of its own (a stack trace pasted was a turn a line).
 */
import { describe, expect, it } from 'vitest';
import { doubleEnv, lastUserText, useModelServers } from './support/model-servers.js';
import { runSimOnTty, type TtyStep } from './support/run-sim-tty.js';
import { useTempFolders } from './support/temp-folders.js';
import { screenLines } from './support/terminal-screen.js';

const makeTempFolder = useTempFolders();
const startServer = useModelServers();

const COLUMNS = 80;
const PASTE_START = '\x1b[200~';
const PASTE_END = '\x1b[201~';

const onTerminal = async (keys: string, more: TtyStep[] = []) => {
  let answers = 0;
  const server = await startServer({
    protocol: 'openai',
    reply: () => ({ text: `Answer ${(answers += 1)}.` }),
  });
  const output = await runSimOnTty(
    [],
    doubleEnv(server.url, makeTempFolder),
    [
      { after: /agent ready/, keys },
      ...more,
      { after: /Answer \d+\.[^]*turn over/, keys: '/quit\r' },
    ],
    makeTempFolder('cwd'),
    { columns: COLUMNS, rows: 30 },
  );
  const asked = server.requests.flatMap(request =>
    request.normalized === undefined ? [] : [lastUserText(request.normalized)],
  );
  return { output, asked, lines: await screenLines(output, COLUMNS) };
};

describe('a paste of several lines on a terminal', () => {
  it('is one message, sent by the Enter typed after it, with the line that Enter ends', async () => {
    const { output, asked, lines } = await onTerminal(
      `${PASTE_START}first pasted line\rsecond pasted line\r${PASTE_END}and what I add\r`,
    );
    // The terminal is asked for bracketed paste, and given back its usual mode at the end.
    expect(output).toContain('\x1b[?2004h');
    expect(output).toContain('\x1b[?2004l');
    expect(asked.filter(text => /pasted line/.test(text))).toHaveLength(1);
    const sent = asked.find(text => /pasted line/.test(text)) ?? '';
    expect(sent).toMatch(/first pasted line\nsecond pasted line\nand what I add/);
    expect(lines.some(line => /2 pasted lines wait: Enter sends them/.test(line))).toBe(true);
  });

  it('ending without a line break: its last line is the line being typed, sent with the rest by Enter', async () => {
    const { asked } = await onTerminal(`${PASTE_START}one\rtwo${PASTE_END}\r`);
    expect(asked.filter(text => /one\ntwo/.test(text))).toHaveLength(1);
    expect(asked.some(text => /^one$|(^|\n)one"?$/.test(text) && !/two/.test(text))).toBe(false);
  });

  it('waiting for Enter, is dropped by Ctrl-C, and said to be; what is typed next goes alone', async () => {
    const { asked, lines } = await onTerminal(`${PASTE_START}drop me\rand me\r${PASTE_END}`, [
      { after: /2 pasted lines wait/, keys: '\x03' },
      { after: /pasted lines are dropped/, keys: 'kept line\r' },
    ]);
    expect(lines.some(line => /^\(the 2 pasted lines are dropped\)$/.test(line))).toBe(true);
    expect(asked.some(text => /drop me|and me/.test(text))).toBe(false);
    expect(asked.filter(text => /kept line/.test(text))).toHaveLength(1);
  });

  it('that starts with a slash is a message, not a command', async () => {
    const { asked } = await onTerminal(
      `${PASTE_START}/usr/lib/x.js:3 failed\rat line two\r${PASTE_END}\r`,
    );
    expect(asked.filter(text => text.includes('/usr/lib/x.js:3 failed\nat line two'))).toHaveLength(
      1,
    );
  });
});
