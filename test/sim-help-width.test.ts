/**
 * `/help` in npm start fitted to where it is shown (issue 45): on a terminal 80 or 60 columns wide,
 * drawn by a terminal emulator, each description starts in one column, its later rows under it
 * (a hanging indent; a command too long for the column has its description on the next row), no
 * word is broken, and the terminal wraps only a word wider than a row, written whole on a row of its own; piped, its lines keep
 * to 80 columns the same way (docs/behaviour.md 10.2). Its lines were written ~110 columns wide,
 * broken by hand, so at 80 a description's rows went ragged, some started elsewhere, and a path
 * was cut mid-word. An example command stays one line, past the width if it must, for the
 * terminal to wrap and join again when copied: broken in two, pasted, it sent a message (trial 14).
 */
import { describe, expect, it } from 'vitest';
import { COMMAND_HELP } from '../sim/chat/commands.js';
import { makeSimRunner } from './support/run-sim.js';
import { runSimOnTty } from './support/run-sim-tty.js';
import { useTempFolders } from './support/temp-folders.js';
import { screenRows, type ScreenRow } from './support/terminal-screen.js';

const makeTempFolder = useTempFolders();
const runSim = makeSimRunner(makeTempFolder);

const FIRST = 'Type a line to mail it to the agent. Commands:';
const LAST = /^ {2}\/\/text +mail a line/;
/** Where every description starts, and its later rows. */
const COLUMN = 29;
/** An example command to type, under its command (sim/chat/commands.ts). */
const EXAMPLE = /^ {4}\//;
/** A command's row with its description: the command, two spaces or more, the description. */
const LABELLED = /^( {2}\S(?:.*?\S)? {2,})\S/;

/** The rows of /help as shown, from its first line to its last command's last row. */
const helpRows = (rows: readonly ScreenRow[]): ScreenRow[] => {
  const first = rows.findIndex(row => row.text === FIRST);
  let last = rows.findIndex((row, index) => index > first && LAST.test(row.text));
  expect(first).toBeGreaterThan(-1);
  expect(last).toBeGreaterThan(first);
  while (/^ {5}/.test(rows[last + 1]?.text ?? '')) last += 1;
  return rows.slice(first, last + 1);
};

/** What a person reading it needs: one column for the descriptions, whole words, each row within the width. */
const expectFitted = (rows: readonly ScreenRow[], width: number) => {
  const [first, ...entries] = rows;
  expect(first!.text).toBe(FIRST);
  for (const [index, { text, wrapped }] of rows.entries()) {
    // An example command is one line whatever the width: two rows copied would send a message.
    if (EXAMPLE.test(text)) continue;
    // Only a word wider than a row goes past it, whole and alone on its row, for the terminal to wrap.
    if (rows[index + 1]?.wrapped === true) expect(text, text).toMatch(/^\s*\S+$/);
    else if (!wrapped) expect(text.length, text).toBeLessThan(width);
  }
  for (const { text, wrapped } of entries) {
    if (wrapped) continue;
    if (/^ {2}\S/.test(text)) {
      // A command, alone on its row or with its description, which then starts in the column.
      const labelled = LABELLED.exec(text);
      if (labelled !== null) expect(labelled[1]!.length, text).toBe(COLUMN);
      continue;
    }
    // A description's later row, or an example to type (indented under the commands).
    expect(text, text).toMatch(new RegExp(`^(?: {${COLUMN}}| {4})\\S`));
  }
  // Every word whole, one wider than a row too once the terminal's wrap is joined (as copied).
  const copied: string[] = [];
  for (const row of rows) {
    if (row.wrapped && copied.length > 0) copied[copied.length - 1] += row.text;
    else copied.push(row.text);
  }
  // Each example command whole on a line of its own, as copied (issue 45, trial 14).
  const examples = COMMAND_HELP.split('\n').filter(line => EXAMPLE.test(line));
  expect(examples.length).toBeGreaterThan(0);
  for (const example of examples) expect(copied).toContain(example);
  const words = new Set(copied.flatMap(line => line.split(/\s+/)));
  const broken = COMMAND_HELP.split(/\s+/).filter(word => word !== '' && !words.has(word));
  expect(broken).toEqual([]);
};

describe('/help on a terminal', () => {
  for (const columns of [80, 60])
    it(`${columns} columns wide: descriptions in one column, wrapped at words under it`, async () => {
      const output = await runSimOnTty(
        ['--demo', '--persona', 'fae', '--fresh'],
        { XDG_STATE_HOME: makeTempFolder('state'), TMPDIR: makeTempFolder('tmp') },
        [
          { after: /agent ready/, keys: '/help\r' },
          { after: /\/\/text/, keys: '/quit\r' },
        ],
        makeTempFolder('cwd'),
        { columns, rows: 30 },
      );
      expectFitted(helpRows(await screenRows(output, columns)), columns);
    });
});

describe('/help piped', () => {
  it('keeps to 80 columns, descriptions in one column', async () => {
    const run = await runSim(['--demo', '--persona', 'fae', '--fresh'], {}, input => {
      input.write('/help\n');
      input.end();
    });
    expect(run.stderr).toBe('');
    const rows = run.stdout.split('\n').map(text => ({ text, wrapped: false }));
    expectFitted(helpRows(rows), 80);
  });
});
