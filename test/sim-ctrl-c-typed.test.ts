/**
 * Ctrl-C in `npm start` on a terminal, as a person presses it (docs/behaviour.md
 * 10.2): a half-typed line is discarded, as a shell discards it, so Enter
 * then sends nothing; and during an `/attach mcp` whose server is slow to
 * start (docs/mcp.md), it stops the attach: the server's process is ended,
 * nothing is put in the agent's tools/, and one line says so. The attach says at once that the
 * server is starting (a line, and the status line with its clock), and a command typed meanwhile
 * is shown waiting for it, then answered (issue 45).
 */
import { join } from 'node:path';
import { stripVTControlCharacters } from 'node:util';
import { describe, expect, it } from 'vitest';
import { checkSandbox } from '../tools/lib/sandbox/sandbox-check.js';
import { printedLines, runSimOnTty } from './support/run-sim-tty.js';
import { skippedBecause } from './support/skipped-because.js';
import { useTempFolders } from './support/temp-folders.js';
import { runningWith } from './tools-helpers.js';

const makeTempFolder = useTempFolders();
const sandboxProblem = await checkSandbox();

describe('Ctrl-C with a half-typed line in npm start', () => {
  it('discards the line: Enter then sends nothing, and no hint about leaving is shown', async () => {
    const output = await runSimOnTty(
      ['--demo'],
      { XDG_STATE_HOME: makeTempFolder('state'), TMPDIR: makeTempFolder('tmp') },
      [
        { after: /agent ready/, keys: 'hello half typed' },
        // Ctrl-C, Enter on what is left (nothing), then a message of its own.
        { after: /hello half typed/, keys: '\x03\rping\r' },
        // (Escape codes stand between the agent's name and its words.)
        { after: /pong[\s\S]*turn over/, keys: '/memory\r' },
        { after: /searchable history/, keys: '/quit\r' },
      ],
      makeTempFolder('cwd'),
    );
    const plain = stripVTControlCharacters(output);
    expect(plain).not.toContain('Ctrl-C again within');
    const kept = plain.slice(plain.indexOf('What lal keeps'));
    expect(kept).toMatch(/#\d+ from HOST: "ping"/);
    expect(kept).not.toContain('half typed');
    expect(kept).toMatch(/1 recent turn\b/);
  });
});

describe.skipIf(sandboxProblem !== undefined)(
  `Ctrl-C during /attach mcp in npm start${skippedBecause(sandboxProblem)}`,
  () => {
    it('ends the server being started and puts nothing in tools/, saying so in one line', async () => {
      const stateHome = makeTempFolder('state');
      // The sandbox binds the server's own folder in the state folder: its command line names it.
      const serverFolder = join(stateHome, 'lal-fae', 'lal-demo', 'mcp', 'slow');
      const output = await runSimOnTty(
        ['--demo'],
        { XDG_STATE_HOME: stateHome, TMPDIR: makeTempFolder('tmp') },
        [
          // A server that never answers: only Ctrl-C ends the attach in time.
          {
            after: /agent ready/,
            keys: `/attach mcp slow node -e 'setInterval(() => {}, 1e9)'\r`,
          },
          {
            after: /\/attach mcp slow/,
            keys: '\x03',
            before: () => expect.poll(() => runningWith(serverFolder).length).toBeGreaterThan(0),
          },
          {
            after: /Stopped attaching mcp-slow/,
            keys: '/tools\r',
            // Looked at while the simulator runs: its leaving must not be what ends the server.
            before: () => expect.poll(() => runningWith(serverFolder)).toEqual([]),
          },
          { after: /built in:/, keys: '/quit\r' },
        ],
        makeTempFolder('cwd'),
      );
      const plain = stripVTControlCharacters(output);
      expect(plain).toContain(
        "Stopped attaching mcp-slow (Ctrl-C): its server was ended; nothing was put in lal's tools/",
      );
      expect(plain).not.toContain('Ctrl-C again within');
      expect(plain.slice(plain.indexOf('built in:'))).not.toContain('mcp-slow');
    });

    it('says at once that the server is starting, and a command typed meanwhile is shown waiting, then answered', async () => {
      const stateHome = makeTempFolder('state');
      const serverFolder = join(stateHome, 'lal-fae', 'lal-demo', 'mcp', 'slow');
      const output = await runSimOnTty(
        ['--demo'],
        { XDG_STATE_HOME: stateHome, TMPDIR: makeTempFolder('tmp') },
        [
          {
            after: /agent ready/,
            keys: `/attach mcp slow node -e 'setInterval(() => {}, 1e9)'\r`,
          },
          // Said at once, and the status line counts the seconds it takes.
          { after: /starting mcp-slow… \(Ctrl-C stops\) \d+s/, keys: '/status\r' },
          {
            after: /waits › \/status/,
            keys: '\x03',
            before: () => expect.poll(() => runningWith(serverFolder).length).toBeGreaterThan(0),
          },
          { after: /Stopped attaching mcp-slow[\s\S]*Model:/, keys: '/quit\r' },
        ],
        makeTempFolder('cwd'),
        { columns: 100, rows: 30 },
      );
      const lines = printedLines(output);
      const starting = lines.indexOf('starting mcp-slow… (Ctrl-C stops)');
      const waits = lines.findIndex(line => line.startsWith('waits › /status'));
      const stopped = lines.findIndex(line => line.startsWith('Stopped attaching mcp-slow'));
      const answered = lines.indexOf('› /status');
      expect(starting, lines.join('\n')).toBeGreaterThan(-1);
      expect(waits).toBeGreaterThan(starting);
      expect(stopped).toBeGreaterThan(waits);
      expect(answered).toBeGreaterThan(stopped);
    });
  },
);
